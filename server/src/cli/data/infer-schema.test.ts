import { describe, expect, it } from 'vitest'
import { inferSchema, rowForTable } from './infer-schema.js'

describe('inferSchema', () => {
  it('types CSV columns from their text: numbers, booleans, strings when mixed or empty', () => {
    const rows = [
      { id: '1', name: 'Ada', age: '36', member: 'true', score: '1.5e3', code: '007', note: null },
      { id: '2', name: 'Bob', age: null, member: 'false', score: '-2', code: 'x7', note: null },
    ]
    expect(inferSchema(rows, true)).toEqual({
      name: { type: 'string' },
      age: { type: 'number' },
      member: { type: 'boolean' },
      score: { type: 'number' },
      code: { type: 'string' },
      note: { type: 'string' },
    })
  })

  it('types JSON columns from their values, objects and arrays included', () => {
    expect(inferSchema([{ a: 1, b: { x: 1 }, c: [1], d: 'x', e: 1 }, { a: 2, b: { y: 2 }, c: [], d: 3, e: null }], false)).toEqual({
      a: { type: 'number' },
      b: { type: 'object' },
      c: { type: 'array' },
      d: { type: 'string' },
      e: { type: 'number' },
    })
  })
})

describe('rowForTable', () => {
  const types = { age: 'number', member: 'boolean', tags: 'array', name: 'string' }

  it('converts CSV text to the column types and drops empty values and system columns', () => {
    expect(rowForTable({ id: '9', age: '36', member: 'false', tags: '["a"]', name: '42', createdAt: 'x', extra: null }, types, true, 2)).toEqual({
      age: 36,
      member: false,
      tags: ['a'],
      name: '42',
    })
  })

  it('names the row, the column, what was expected and what was received when a value does not fit', () => {
    expect(() => rowForTable({ age: 'old' }, types, true, 7)).toThrow('row 7, column "age": expected a number, received "old"')
    expect(() => rowForTable({ member: 'yes' }, types, true, 8)).toThrow('row 8, column "member": expected true or false, received "yes"')
    expect(() => rowForTable({ tags: '[' }, types, true, 9)).toThrow('row 9, column "tags": expected JSON array text, received "["')
  })

  it('keeps JSON values, turning a non-string into its JSON text for a string column', () => {
    expect(rowForTable({ age: 3, name: { first: 'Ada' } }, types, false, 1)).toEqual({ age: 3, name: '{"first":"Ada"}' })
  })
})
