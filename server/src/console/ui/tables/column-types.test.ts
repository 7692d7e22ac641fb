import { describe, expect, it } from 'vitest'
import type { Column } from 'botshelf/client'
import { columnDefinition, columnTypeOf, retypedColumn } from './column-types.js'
import { cellText, parseCell } from './column-kinds.js'

describe('column types', () => {
  it('shows date-time strings as date and writes date back as a date-time string', () => {
    const date: Column = { type: 'string', format: 'date-time', 'x-zui': { index: 0 } }
    expect(columnTypeOf(date)).toBe('date')
    expect(columnDefinition('date')).toEqual({ type: 'string', format: 'date-time' })
    expect(columnDefinition('number')).toEqual({ type: 'number' })
  })

  it('retypes a column keeping its settings but not its index or date format', () => {
    const column: Column = { type: 'string', format: 'date-time', description: 'when', 'x-zui': { index: 3, searchable: true } }
    expect(retypedColumn(column, 'number')).toEqual({ type: 'number', description: 'when', 'x-zui': { searchable: true } })
  })

  it('edits cells as text: strings as typed, other types as JSON, empty as null', () => {
    expect(cellText('Ada')).toBe('Ada')
    expect(cellText(42)).toBe('42')
    expect(cellText(null)).toBe('')
    expect(parseCell('42', 'number')).toEqual({ ok: true, value: 42 })
    expect(parseCell('Ada', 'string')).toEqual({ ok: true, value: 'Ada' })
    expect(parseCell('', 'number')).toEqual({ ok: true, value: null })
    expect(parseCell('old', 'number')).toEqual({ ok: false, error: 'expected a number, received "old"' })
  })
})
