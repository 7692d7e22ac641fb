import { describe, expect, it } from 'vitest'
import { groupOutputKey } from './filter.js'
import { columnNamePattern, tableNamePattern } from './limits.js'
import { CreateTableBodySchema, DeleteTableRowsBodySchema, FindTableRowsBodySchema, tablesOperations } from './operations.js'

describe('tablesOperations', () => {
  it('lists every Tables operation of docs/wire-format.md §13 under its client name', () => {
    expect(Object.keys(tablesOperations).sort()).toEqual(
      [
        'createTable', 'createTableRows', 'deleteTable', 'deleteTableRows', 'duplicateTable', 'exportTable', 'findTableRows',
        'getOrCreateTable', 'getTable', 'getTableJobs', 'getTableRow', 'importTable', 'listTables', 'renameTableColumn',
        'updateTable', 'updateTableRows', 'upsertTableRows',
      ].sort(),
    )
    for (const [key, op] of Object.entries(tablesOperations)) expect(op.name).toBe(key)
  })

  it('gives every operation a distinct method and path', () => {
    const routes = Object.values(tablesOperations).map((op) => `${op.method} ${op.path}`)
    expect(new Set(routes).size).toBe(routes.length)
  })

  it('declares a params schema for every path parameter', () => {
    for (const op of Object.values(tablesOperations)) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
      expect(Object.keys(op.params?.shape ?? {}).sort()).toEqual(names.sort())
    }
  })
})

describe('request schemas', () => {
  it('refuses a table name without the Table suffix and accepts one with it', () => {
    expect(CreateTableBodySchema.safeParse({ name: 'orders', schema: {} }).success).toBe(false)
    expect(CreateTableBodySchema.safeParse({ name: 'ordersTable', schema: {} }).success).toBe(true)
  })

  it('bounds findTableRows.limit to 1..1000 and search to 1024 characters', () => {
    expect(FindTableRowsBodySchema.safeParse({ limit: 0 }).success).toBe(false)
    expect(FindTableRowsBodySchema.safeParse({ limit: 1001 }).success).toBe(false)
    expect(FindTableRowsBodySchema.safeParse({ limit: 1000, search: 'x'.repeat(1024) }).success).toBe(true)
    expect(FindTableRowsBodySchema.safeParse({ search: 'x'.repeat(1025) }).success).toBe(false)
  })

  it('refuses a filter that is not an object and more than 1000 ids', () => {
    expect(FindTableRowsBodySchema.safeParse({ filter: [1] }).success).toBe(false)
    expect(DeleteTableRowsBodySchema.safeParse({ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }).success).toBe(false)
  })
})

describe('names', () => {
  it('applies the table and column name rules', () => {
    expect(tableNamePattern.test('_xTable')).toBe(true)
    expect(tableNamePattern.test('1xTable')).toBe(true)
    expect(tableNamePattern.test('zai_examples_table')).toBe(true)
    expect(tableNamePattern.test('Table')).toBe(false)
    expect(tableNamePattern.test('my-Table')).toBe(false)
    expect(tableNamePattern.test(`${'a'.repeat(45)}Table`)).toBe(true)
    expect(tableNamePattern.test(`${'a'.repeat(46)}Table`)).toBe(false)
    expect(columnNamePattern.test('first name')).toBe(true)
    expect(columnNamePattern.test('a.b')).toBe(false)
    expect(columnNamePattern.test('$a')).toBe(false)
    expect(columnNamePattern.test('x'.repeat(31))).toBe(false)
  })

  it('builds group output keys', () => {
    expect(groupOutputKey('updatedAt', 'min')).toBe('updatedAtMin')
    expect(groupOutputKey('name', 'unique')).toBe('nameUnique')
  })
})
