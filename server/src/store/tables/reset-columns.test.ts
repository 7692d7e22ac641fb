import { describe, expect, it } from 'vitest'
import type { TableSchema } from 'botshelf/api'
import { resetColumnsOf } from './reset-columns.js'

const schema = (properties: Record<string, Record<string, unknown>>): TableSchema =>
  ({ type: 'object', properties: Object.fromEntries(Object.entries(properties).map(([name, column]) => [name, { ...column, 'x-zui': {} }])) }) as unknown as TableSchema

describe('resetColumnsOf', () => {
  it('names the columns whose JSON type changed, not the ones kept, added, removed or moved between text kinds', () => {
    const before = schema({ code: { type: 'number' }, when: { type: 'string' }, label: { type: 'string' }, gone: { type: 'boolean' }, tags: { type: 'array' } })
    const after = schema({ code: { type: 'string' }, when: { type: 'string', format: 'date-time' }, label: { type: 'string' }, added: { type: 'number' }, tags: { type: 'object' } })
    expect(resetColumnsOf(before, after)).toEqual(['code', 'tags'])
    expect(resetColumnsOf(after, after)).toEqual([])
  })
})
