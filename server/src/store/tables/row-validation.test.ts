import { describe, expect, it } from 'vitest'
import { RegexBudget } from './regex-budget.js'
import { rowProblemsError, validateRows } from './row-validation.js'
import { tableColumns } from './table-columns.js'
import { newTableSchema } from './table-schema.js'

const schema = newTableSchema({
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'number' }, born: { type: 'string', format: 'date-time' }, code: { type: 'string', pattern: '^[A-Z]+$' } },
  required: ['name'],
})
const { columns } = tableColumns(schema, { name: 'c1', age: 'c2', born: 'c3', code: 'c4' })

describe('validateRows', () => {
  it('fills missing columns with null on insert, normalizes dates, and warns once per unknown key', () => {
    const result = validateRows(columns, [{ name: 'Ada', born: '1815-12-10', extra: 1 }, { name: 'Alan', extra: 2, id: 7 }], 'insert', 1)
    expect(result.problems).toEqual([])
    expect([...result.rows[0]!]).toEqual([['name', 'Ada'], ['born', '1815-12-10T00:00:00.000Z'], ['age', null], ['code', null]])
    expect(result.warnings).toEqual(['Column "extra" is not in the table schema; its values were ignored'])
  })

  it('touches only the named columns on patch and reports every problem by row index', () => {
    const result = validateRows(columns, [{ age: 'x' }, { code: 'abc', name: null }], 'patch', 1)
    expect([...result.rows[0]!]).toEqual([])
    expect(result.problems).toEqual([
      { row: 0, column: 'age', message: 'expected number, received "x"' },
      { row: 1, column: 'code', message: 'expected a string matching /^[A-Z]+$/, received "abc"' },
      { row: 1, column: 'name', message: 'required, received null' },
    ])
  })

  it('refuses object and array values nested past 64 levels before measuring them', () => {
    const nested = newTableSchema({ type: 'object', properties: { o: { type: 'object' }, list: { type: 'array' } } })
    const deepColumns = tableColumns(nested, { o: 'c1', list: 'c2' }).columns
    let deep: unknown = 1
    for (let i = 0; i < 10_000; i++) deep = { a: deep }
    const result = validateRows(deepColumns, [{ o: deep, list: [[[1]]] }], 'insert', 30)
    expect(result.problems).toEqual([{ row: 0, column: 'o', message: 'expected at most 64 levels of nesting, received more (at a.a.a.a.a.a.a.a…)' }])
  })

  it('reads only own properties of an object value against the column properties', () => {
    const typed = newTableSchema({ type: 'object', properties: { o: { type: 'object', properties: { toString: { type: 'string' } } } } })
    const typedColumns = tableColumns(typed, { o: 'c1' }).columns
    expect(validateRows(typedColumns, [{ o: { toString: 'x' } }], 'insert', 1).problems).toEqual([])
    expect(validateRows(typedColumns, [{ o: {} }], 'insert', 1).problems[0]?.message).toBe('property "toString": expected string, received missing')
    expect(validateRows(typedColumns, [{ o: { toString: 1 } }], 'insert', 1).problems[0]?.message).toBe('property "toString": expected string, received number (1)')
  })

  it('checks column patterns under the budget of the call, a value that could overrun it being a problem', () => {
    const budget = new RegexBudget({ baseMs: 1, now: () => 0 })
    const result = validateRows(columns, [{ name: 'a', code: 'ABC' }, { name: 'b', code: 'A'.repeat(5000) }], 'insert', 2, undefined, budget)
    expect(result.problems).toEqual([
      {
        row: 1,
        column: 'code',
        message:
          'checking the column pattern needs more work than allowed: 1 value took 0.000 ms so far and the next, a pattern of 6 instructions against a value of 5000 characters may take up to 3.8 ms; at most 1.0 ms are allowed; write fewer or shorter values per call, or use a simpler pattern',
      },
    ])
    expect(validateRows(columns, [{ name: 'b', code: 'A'.repeat(5000) }], 'insert', 2).problems).toEqual([])
  })

  it('measures the whole row a patch leads to against 4 KB × factor', () => {
    const merged = () => ({ name: 'x'.repeat(5000) })
    expect(validateRows(columns, [{ age: 1 }], 'patch', 1, merged).problems[0]?.message).toMatch(/the limit is 4096/)
    expect(validateRows(columns, [{ age: 1 }], 'patch', 2, merged).problems).toEqual([])
  })
})

describe('rowProblemsError', () => {
  it('numbers rows from firstRowIndex in the message and in metadata.issues', () => {
    const error = rowProblemsError([{ row: 2, column: 'age', message: 'expected number, received "x"' }], 1000)
    expect([error.type, error.code]).toEqual(['InvalidDataFormat', 'INVALID_ROW'])
    expect(error.message).toBe('1 value does not fit the table schema; no row was written: rows.1002.age: expected number, received "x"')
    expect(error.metadata).toEqual({ issues: [{ path: 'rows.1002.age', row: 1002, column: 'age', message: 'expected number, received "x"' }] })
  })

  it('lists at most 20 problems in the message', () => {
    const problems = Array.from({ length: 25 }, (_, row) => ({ row, column: 'age', message: 'bad' }))
    const error = rowProblemsError(problems)
    expect(error.message.split('\n')).toHaveLength(22)
    expect(error.message).toContain('… and 5 more')
    expect((error.metadata!['issues'] as unknown[]).length).toBe(25)
  })
})
