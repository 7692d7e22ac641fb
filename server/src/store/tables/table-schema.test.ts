import { describe, expect, it } from 'vitest'
import type { TableJsonSchema } from 'botshelf/api'
import { planSchemaChange } from './schema-change.js'
import { tableColumns } from './table-columns.js'
import { checkColumnPatterns, newTableSchema, orderedColumns } from './table-schema.js'

describe('newTableSchema', () => {
  it('numbers columns in input order and keeps required and $schema', () => {
    const schema = newTableSchema({ $schema: 'http://json-schema.org/draft-07/schema#', properties: { b: { type: 'string' }, a: { type: 'number' } }, required: ['a'] })
    expect(orderedColumns(schema).map((c) => [c.name, c.column['x-zui'].index])).toEqual([['b', 0], ['a', 1]])
    expect(schema).toMatchObject({ type: 'object', additionalProperties: true, required: ['a'], $schema: 'http://json-schema.org/draft-07/schema#' })
  })

  it('refuses a removal and a required name that is not a column', () => {
    expect(() => newTableSchema({ a: { type: 'string' }, b: null })).toThrow('schema: column "b" has type null; a column needs a type (null removes a column only in updateTable)')
    expect(() => newTableSchema({ properties: { a: { type: 'string' } }, required: ['b'] })).toThrow('schema.required: "b" is not a column')
  })
})

describe('checkColumnPatterns', () => {
  it('bounds the instructions of all the column patterns of a table together', () => {
    expect(() => newTableSchema({ a: { type: 'string', pattern: '(.*a){150}' }, b: { type: 'string', pattern: '^x' } })).not.toThrow()
    expect(() => newTableSchema({ a: { type: 'string', pattern: '(.*a){150}' }, b: { type: 'string', pattern: '(.*a){60}' } })).toThrow(
      'schema.b.pattern: the pattern is too complex: the column patterns of the table compile to 1054 instructions together, at most 1000 are allowed',
    )
    const schema = newTableSchema({ a: { type: 'string', pattern: '(.*a){150}' } })
    expect(() => planSchemaChange(schema, { b: { type: 'string', pattern: '(.*a){60}' } })).toThrow('compile to 1054 instructions together')
    expect(() => checkColumnPatterns(orderedColumns(schema))).not.toThrow()
  })

  it('keeps a table whose patterns predate the limits usable: its pattern compiles unbounded where it runs', () => {
    // A pattern the catalog holds from before decision 0701 (1983 instructions).
    const legacy = { type: 'object', additionalProperties: true, properties: { code: { type: 'string', pattern: '(?s).{0,990}c', 'x-zui': { index: 0 } } } } as TableJsonSchema
    expect(tableColumns(legacy, { code: 'c1' }).columns[0]?.pattern?.programSize).toBe(1983)
    expect(() => planSchemaChange(legacy, { note: { type: 'string' } })).not.toThrow()
    expect(() => planSchemaChange(legacy, { note: { type: 'string', pattern: '^n' } })).toThrow('the column patterns of the table compile to 1983 instructions together')
  })
})
