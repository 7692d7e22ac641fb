import { describe, expect, it } from 'vitest'
import { TablesStoreError } from './errors.js'
import { thrownTablesError as thrown } from './thrown-error.test-support.js'
import { checkKeyColumn, checkTableUpdate, copyNameCandidates, renamedColumnRecord } from './table-rules.js'
import { newTableSchema } from './table-schema.js'
import type { TableRecord } from './types.js'

const record: TableRecord = {
  id: 'table_01K86HD0D5T3HFCGBEKQJFNKAD',
  botId: 'bot_1',
  name: 'peopleTable',
  physical: 'ut_01k86hd0d5t3hfcgbekqjfnkad',
  schema: newTableSchema({ type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['email'] }),
  physicalMap: { name: 'c1', email: 'c2' },
  nextColumn: 3,
  factor: 2,
  frozen: false,
  keyColumn: 'email',
  tags: {},
  isComputeEnabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
}

describe('renamedColumnRecord', () => {
  it('moves the name in the schema, required, physical map and key column, keeping the stored column', () => {
    const renamed = renamedColumnRecord(record, 'email', 'mail')!
    expect(Object.keys(renamed.schema.properties)).toEqual(['name', 'mail'])
    expect(renamed.schema.required).toEqual(['mail'])
    expect(renamed.physicalMap).toEqual({ name: 'c1', mail: 'c2' })
    expect(renamed.keyColumn).toBe('mail')
    expect(record.keyColumn).toBe('email')
  })

  it('changes nothing for the same name, and refuses frozen tables, unknown columns, bad and taken names', () => {
    expect(renamedColumnRecord(record, 'name', 'name')).toBeNull()
    expect(thrown(() => renamedColumnRecord({ ...record, frozen: true }, 'name', 'x')).type).toBe('ResourceLockedConflict')
    expect(thrown(() => renamedColumnRecord(record, 'nope', 'x')).message).toBe('name: column "nope" not found in table "peopleTable"')
    expect(thrown(() => renamedColumnRecord(record, 'name', 'id')).message).toContain('newName: column name "id" is reserved')
    expect(thrown(() => renamedColumnRecord(record, 'name', 'email')).message).toBe('newName: column "email" already exists')
  })
})

describe('prototype names (docs/decisions/0701-input-bounds.md)', () => {
  it('are not columns unless the table has them, for key columns and renames', () => {
    for (const name of ['toString', 'constructor', '__proto__']) {
      expect(thrown(() => checkKeyColumn(record.schema, name)).message).toBe(`keyColumn: "${name}" is not a column of the table`)
      expect(thrown(() => renamedColumnRecord(record, name, 'x')).message).toBe(`name: column "${name}" not found in table "peopleTable"`)
    }
    const withToString = { ...record, schema: newTableSchema({ toString: { type: 'string' } }), physicalMap: { toString: 'c1' } }
    expect(() => checkKeyColumn(withToString.schema, 'toString')).not.toThrow()
    expect(Object.keys(renamedColumnRecord(withToString, 'toString', 'constructor')!.schema.properties)).toEqual(['constructor'])
  })

  it('refuses "__proto__" as a new name', () => {
    expect(thrown(() => renamedColumnRecord(record, 'name', '__proto__')).message).toMatch(/^newName: column name "__proto__" is not allowed/)
  })
})

describe('checkTableUpdate', () => {
  it('lets a frozen table change tags, factor and compute but nothing structural', () => {
    const frozen = { ...record, frozen: true }
    expect(() => checkTableUpdate(frozen, { tags: { a: 'b' }, factor: 3, isComputeEnabled: true, name: 'peopleTable', keyColumn: 'email' })).not.toThrow()
    for (const input of [{ name: 'otherTable' }, { schema: {} }, { keyColumn: null }, { frozen: false }]) {
      expect(thrown(() => checkTableUpdate(frozen, input)).code).toBe('TABLE_FROZEN')
    }
  })

  it('lets factor only grow', () => {
    expect(thrown(() => checkTableUpdate(record, { factor: 1 })).message).toBe('factor: may only increase (current 2), received 1')
  })
})

describe('copyNameCandidates', () => {
  it('numbers copies after the first and stops at the longest valid name', () => {
    expect(copyNameCandidates('ordersTable').slice(0, 3)).toEqual(['ordersCopyTable', 'ordersCopy2Table', 'ordersCopy3Table'])
    expect(copyNameCandidates(`${'a'.repeat(41)}Table`)).toEqual([`${'a'.repeat(41)}CopyTable`])
  })
})
