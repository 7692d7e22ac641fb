import { describe, expect, it } from 'vitest'
import { TablesStoreError } from '../errors.js'
import { tableColumns } from '../table-columns.js'
import { newTableSchema } from '../table-schema.js'
import type { FindQuery } from '../types.js'
import { planFind } from './plan-find.js'
import { projectRow } from './projection.js'
import { searchWords } from './search-words.js'

const schema = newTableSchema({
  name: { type: 'string', 'x-zui': { searchable: true } },
  total: { type: 'number' },
  status: { type: 'string' },
  tags: { type: 'array' },
  attrs: { type: 'object' },
})
const table = tableColumns(schema, { name: 'c1', total: 'c2', status: 'c3', tags: 'c4', attrs: 'c5' })
const unsearchable = tableColumns(newTableSchema({ total: 1 }), { total: 'c1' })

function message(query: FindQuery, columns = table): string {
  try {
    planFind(columns, query)
  } catch (error) {
    if (error instanceof TablesStoreError && error.type === 'InvalidQuery') return error.message
    throw error
  }
  throw new Error('expected an InvalidQuery error')
}

describe('planFind: rows', () => {
  it('sorts by id by default, with the default page', () => {
    expect(planFind(table, {})).toEqual({
      type: 'rows', filter: { type: 'all' }, order: { by: 'column', column: 'id', kind: 'number', direction: 'asc' }, limit: 100, offset: 0, warnings: [],
    })
  })

  it('keeps the parsed filter, the column order and the projection', () => {
    const plan = planFind(table, { filter: { total: { $gt: 1 } }, orderBy: 'createdAt', orderDirection: 'desc', select: ['name', 'attrs.price', 'computed'], limit: 5, offset: 10 })
    expect(plan).toEqual({
      type: 'rows',
      filter: { type: 'compare', target: { type: 'column', column: 'total', kind: 'number' }, op: 'gt', operand: { type: 'number', value: 1 } },
      order: { by: 'column', column: 'createdAt', kind: 'date', direction: 'desc' },
      projection: { columns: ['name', 'attrs'], paths: [['name'], ['attrs', 'price'], ['computed']] },
      limit: 5,
      offset: 10,
      warnings: [],
    })
  })

  it('searches words, best match first unless orderBy says otherwise', () => {
    expect(planFind(table, { search: 'March invoices!' })).toMatchObject({ search: ['March', 'invoices'], order: { by: 'similarity', direction: 'desc' } })
    expect(planFind(table, { search: 'x', orderBy: 'similarity' })).toMatchObject({ order: { by: 'similarity', direction: 'asc' } })
    expect(planFind(table, { search: 'x', orderBy: 'total' })).toMatchObject({ order: { by: 'column', column: 'total' } })
    const ignored = planFind(table, { search: '!!' })
    expect([ignored.type === 'rows' && ignored.search, ignored.warnings]).toEqual([undefined, ['search: no words to search for; the search was ignored']])
    expect(planFind(unsearchable, { search: '  ' })).not.toHaveProperty('search')
  })

  it('refuses what cannot be sorted, selected or searched', () => {
    expect(message({ orderBy: 'nope' })).toBe('orderBy: unknown column "nope"')
    expect(message({ orderBy: 'tags' })).toBe('orderBy: cannot order by the array column "tags"')
    expect(message({ orderBy: 'attrs.price' })).toBe('orderBy: dot paths work in filter only, not here')
    expect(message({ orderBy: 'similarity' })).toBe('orderBy: "similarity" needs a search')
    expect(message({ select: ['name', 'nope'] })).toBe('select.1: unknown column "nope"')
    expect(message({ select: ['attrs.'] })).toBe('select.0: invalid path "attrs."')
    expect(message({ search: 'x' }, unsearchable)).toBe('search: the table has no searchable column; mark columns with "x-zui": { "searchable": true }')
    expect(message({ filter: { total: 'x' } })).toBe('filter.total: expected a number, received "x"')
  })
})

describe('planFind: group', () => {
  it('lists outputs in request order and sorts groups by their keys', () => {
    const plan = planFind(table, { group: { status: 'key', total: ['sum', 'count'] }, select: ['name'] })
    expect(plan).toEqual({
      type: 'group',
      filter: { type: 'all' },
      outputs: [
        { key: 'statusKey', column: 'status', op: 'key', kind: 'string' },
        { key: 'totalSum', column: 'total', op: 'sum', kind: 'number' },
        { key: 'totalCount', column: 'total', op: 'count', kind: 'number' },
      ],
      order: [{ output: 0, direction: 'asc' }],
      limit: 100,
      offset: 0,
      warnings: ['select: ignored with group; groups carry only their output keys'],
    })
  })

  it('sorts by an output key or a key column first, then by the other keys', () => {
    const group = { status: 'key', name: 'key', total: 'sum' } as const
    expect(planFind(table, { group, orderBy: 'totalSum', orderDirection: 'desc' })).toMatchObject({
      order: [{ output: 2, direction: 'desc' }, { output: 0, direction: 'asc' }, { output: 1, direction: 'asc' }],
    })
    expect(planFind(table, { group, orderBy: 'name' })).toMatchObject({ order: [{ output: 1, direction: 'asc' }, { output: 0, direction: 'asc' }] })
  })

  it('refuses unknown columns and operations that do not apply', () => {
    expect(message({ group: {} })).toBe('group: expected at least one column')
    expect(message({ group: { nope: 'key' } })).toBe('group.nope: unknown column "nope"')
    expect(message({ group: { status: [] } })).toBe('group.status: expected at least one operation')
    expect(message({ group: { name: 'sum' } })).toBe('group.name: "sum" applies to number columns, not string')
    expect(message({ group: { tags: 'max' } })).toBe('group.tags: "max" applies to number, string and date columns, not array')
    expect(message({ group: { attrs: 'key' } })).toBe('group.attrs: "key" applies to scalar columns, not object')
    expect(message({ group: { status: 'median' as never } })).toBe('group.status: unknown operation "median"; expected one of key, count, sum, avg, max, min, unique')
    expect(message({ group: { status: 'key' }, orderBy: 'total' })).toBe('orderBy: "total" is neither a key column nor an output key of the group')
  })
})

describe('projectRow with prototype names', () => {
  it('reads own properties only', () => {
    const row = { id: 1, createdAt: 'c', updatedAt: 'u', computed: {}, a: { toString: 'own' }, b: {} }
    expect(projectRow(row, [['a', 'toString'], ['b', 'toString'], ['b', 'constructor', 'name'], ['toString']])).toEqual({
      id: 1,
      createdAt: 'c',
      updatedAt: 'u',
      computed: {},
      a: { toString: 'own' },
    })
  })
})

describe('projectRow and searchWords', () => {
  it('copies selected paths and the system fields only', () => {
    const row = { id: 1, createdAt: 'c', updatedAt: 'u', computed: {}, a: { b: 1, c: 2 }, d: 3 }
    expect(projectRow(row, [['a', 'b'], ['missing']])).toEqual({ id: 1, createdAt: 'c', updatedAt: 'u', computed: {}, a: { b: 1 } })
  })

  it('keeps distinct words, dropping search syntax', () => {
    expect(searchWords('"pie" OR tart* -x pie')).toEqual(['pie', 'OR', 'tart', 'x'])
    expect(searchWords('--')).toEqual([])
  })
})
