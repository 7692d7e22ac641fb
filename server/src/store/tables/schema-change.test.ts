import { describe, expect, it } from 'vitest'
import { convertColumnValue, planSchemaChange } from './schema-change.js'
import { newTableSchema } from './table-schema.js'
import { TablesStoreError } from './errors.js'
import { thrownTablesError as thrown } from './thrown-error.test-support.js'

const people = newTableSchema({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' }, email: { type: 'string' } }, required: ['name'] })

describe('planSchemaChange', () => {
  it('adds new columns after the others, removes named ones, and keeps the rest in place', () => {
    const plan = planSchemaChange(people, { note: { type: 'string' }, age: null, ghost: null })
    expect(plan.removed).toEqual(['age'])
    expect(plan.steps).toEqual([{ action: 'add', name: 'note', column: { type: 'string', 'x-zui': { index: 3 } } }])
    expect(Object.entries(plan.schema.properties).map(([name, c]) => [name, c['x-zui'].index])).toEqual([['name', 0], ['email', 2], ['note', 3]])
    expect(plan.schema.required).toEqual(['name'])
  })

  it('lists kind changes in input order, keeping the column index; a redefinition of the same kind needs no step', () => {
    const plan = planSchemaChange(people, { email: { type: 'string', 'x-zui': { searchable: true } }, age: { type: 'string' }, added: { type: 'boolean' } })
    expect(plan.steps).toEqual([
      { action: 'convert', name: 'age', from: 'number', to: 'string' },
      { action: 'add', name: 'added', column: { type: 'boolean', 'x-zui': { index: 3 } } },
    ])
    expect(plan.schema.properties['age']).toEqual({ type: 'string', 'x-zui': { index: 1 } })
    expect(plan.schema.properties['email']!['x-zui']).toEqual({ searchable: true, index: 2 })
  })

  it('replaces required when given, and refuses names that are not columns or more than 20 columns', () => {
    expect(planSchemaChange(people, { type: 'object', properties: {}, required: ['age'] }).schema.required).toEqual(['age'])
    expect(planSchemaChange(people, { type: 'object', properties: { name: null }, required: [] }).schema.required).toBeUndefined()
    expect(thrown(() => planSchemaChange(people, { type: 'object', properties: {}, required: ['nope'] })).message).toBe('schema.required: "nope" is not a column')
    const many = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`extra${i}`, { type: 'number' }]))
    const error = thrown(() => planSchemaChange(people, many))
    expect([error.type, error.message]).toEqual(['LimitExceeded', 'schema: a table has at most 20 columns; this change makes 21'])
  })
})

describe('convertColumnValue', () => {
  it('resets values when the JSON type changes, as Botpress does, and keeps string ↔ date-time values that read as the target', () => {
    expect(convertColumnValue('number', 'string', 2.5)).toEqual({ ok: true, value: null })
    expect(convertColumnValue('boolean', 'string', true)).toEqual({ ok: true, value: null })
    expect(convertColumnValue('object', 'string', { a: 1 })).toEqual({ ok: true, value: null })
    expect(convertColumnValue('string', 'number', ' 12 ')).toEqual({ ok: true, value: null })
    expect(convertColumnValue('string', 'object', '{"a":1}')).toEqual({ ok: true, value: null })
    expect(convertColumnValue('string', 'date', '2026-01-01')).toEqual({ ok: true, value: '2026-01-01T00:00:00.000Z' })
    expect(convertColumnValue('string', 'date', 'soon')).toEqual({ ok: false })
    expect(convertColumnValue('date', 'string', '2026-01-01T00:00:00.000Z')).toEqual({ ok: true, value: '2026-01-01T00:00:00.000Z' })
    expect(convertColumnValue('number', 'boolean', null)).toEqual({ ok: true, value: null })
  })
})
