import { describe, expect, it } from 'vitest'
import { describeTypes, parseTypes } from './event-types.js'

describe('the console reads event types as one comma-separated field', () => {
  it('splits and trims, dropping blanks; empty is every type', () => {
    expect(parseTypes(' file.created, file.deleted ,')).toEqual(['file.created', 'file.deleted'])
    expect(parseTypes('   ')).toEqual([])
    expect(describeTypes([])).toBe('every type')
    expect(describeTypes(['table.rows.created', 'file.indexed'])).toBe('table.rows.created, file.indexed')
    // What the field shows reads back as the same list.
    expect(parseTypes(describeTypes(['file.created', 'file.updated']))).toEqual(['file.created', 'file.updated'])
  })
})
