import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ErrorType } from 'botshelf/api'
import type { Row, Table } from 'botshelf/api'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import type { PagePosition } from '../page.js'
import { tableSnapshotOf } from './table-snapshot.js'
import { tableToWire } from './table-wire.js'
import type { TablesPort } from './tables-port.js'
import { describeRowVectorContract } from './tables-row-vectors.contract.js'

const START = Date.parse('2026-06-01T10:00:00.000Z')
const BOT = 'bot_tables_a'
const OTHER_BOT = 'bot_tables_b'

/** Milliseconds of an ISO time, so the suite does not depend on how a backend formats its strings. */
function ms(iso: string | null | undefined): number {
  if (iso === null || iso === undefined) throw new Error(`expected a time, received ${String(iso)}`)
  return Date.parse(iso)
}

/** A people table in the JSON Schema form: a searchable required name, and a few typed columns. */
const people = {
  type: 'object',
  properties: {
    name: { type: 'string', 'x-zui': { searchable: true } },
    age: { type: 'number' },
    email: { type: 'string' },
    active: { type: 'boolean' },
    born: { type: 'string', format: 'date-time' },
  },
  required: ['name'],
}

/**
 * The error a call rejected with, checked to be a tables store error with this wire `type` and stable `code`.
 * Matched on `name`, `type` and `code` rather than by class: the error class moves to the port folder
 * (src/store/tables/errors.ts) with the tables work, and a contract may import no adapter module.
 */
async function tablesError(call: Promise<unknown>, type: ErrorType, code: string): Promise<Error & { type: string; code: string }> {
  const error = await call.then(
    () => {
      throw new Error(`expected the call to reject with a TablesStoreError ${type}/${code}, but it resolved`)
    },
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(Error)
  expect(error).toMatchObject({ name: 'TablesStoreError', type, code })
  return error as Error & { type: string; code: string }
}

/**
 * Declares the behaviour every `TablesPort` backend must have (catalog with the three schema forms and keyset
 * listing, table changes, row writes all or nothing, find/group/search, row checks and imports numbered from a
 * first row, table jobs), as vitest `describe`/`it` blocks written against the port only. `open` gets the
 * suite's clock (a fake one it moves by hand) and returns a fresh, empty, migrated backend (only its `tables`
 * port is used, so an adapter can run the suite on that port alone); `close` runs after each test.
 *
 * @example
 * ```ts
 * describeTablesPortContract('sqlite-memory', async (now) => {
 *   const backend = await openSqliteBackend({ memory: true, now })
 *   return { backend, close: () => backend.close() }
 * })
 * ```
 */
export function describeTablesPortContract(name: string, open: (now: Clock) => Promise<{ backend: Pick<Backend, 'tables'>; close(): Promise<void> }>): void {
  describe(`TablesPort contract: ${name}`, () => {
    let current = START
    const now: Clock = () => new Date(current)
    const advance = (by: number): void => {
      current += by
    }
    let tables: TablesPort
    let close: () => Promise<void>

    beforeEach(async () => {
      current = START
      // A backend that failed to open has nothing to close.
      close = async () => {}
      const opened = await open(now)
      tables = opened.backend.tables
      close = opened.close
    })
    afterEach(async () => {
      await close()
    })

    /** Column name → x-zui.index, in the order the schema lists them. */
    function columnIndexes(table: Table): Array<[string, number]> {
      return Object.entries(table.schema.properties).map(([column, spec]) => [column, spec['x-zui'].index])
    }

    describeRowVectorContract(() => tables, advance)

    async function rowCount(ref: string, botId = BOT): Promise<number> {
      return (await tables.getTable(botId, ref)).rows
    }

    async function allTables(query: { tags?: Record<string, string>; pageSize: number }, botId = BOT): Promise<Table[]> {
      const found: Table[] = []
      let after: PagePosition | undefined
      for (let guard = 0; guard < 200; guard++) {
        const page = await tables.listTables(botId, { ...query, ...(after ? { after } : {}) })
        found.push(...page.tables)
        if (!page.next) return found
        after = page.next
      }
      throw new Error('the pages never ended')
    }

    describe('restoreTable and restoreRows (dataset import)', () => {
      it('recreates a table with its id, settings, tags and times, and rows with their ids and times', async () => {
        const source = await tables.createTable(BOT, { name: 'peopleTable', schema: people, keyColumn: 'email', tags: { team: 'ops' }, factor: 2 })
        advance(1_000)
        await tables.createRows(BOT, 'peopleTable', [
          { name: 'Ada', age: 36, email: 'ada@example.com', active: true, born: '1815-12-10T00:00:00.000Z' },
          { name: 'Alan', email: 'alan@example.com' },
          { name: 'Grace', age: 85, email: 'grace@example.com' },
        ])
        advance(1_000)
        await tables.updateRows(BOT, 'peopleTable', [{ id: 1, age: 37 }])
        await tables.deleteRows(BOT, 'peopleTable', { ids: [2] })
        const record = await tables.loadTable(BOT, 'peopleTable')
        const { rows } = await tables.findRows(BOT, 'peopleTable', { orderBy: 'id' })
        await tables.deleteTable(BOT, 'peopleTable')
        advance(60_000)

        const restored = await tables.restoreTable(BOT, tableSnapshotOf(record))
        expect(restored).toEqual(tableToWire(record))
        expect(restored.id).toBe(source.id)
        await tables.restoreRows(BOT, source.id, rows as never)
        expect((await tables.findRows(BOT, 'peopleTable', { orderBy: 'id' })).rows).toEqual(rows)
        expect(rows.map((row) => row.id)).toEqual([1, 3])
        expect((await tables.listTables(BOT, { tags: { team: 'ops' }, pageSize: 10 })).tables.map((t) => t.id)).toEqual([source.id])
        // The next row id follows the largest restored one; the key column still refuses a duplicate.
        const [next] = (await tables.createRows(BOT, 'peopleTable', [{ name: 'Linus', email: 'linus@example.com' }])).rows
        expect(next!.id).toBe(4)
        await tablesError(tables.createRows(BOT, 'peopleTable', [{ name: 'Ada again', email: 'ada@example.com' }]), 'AlreadyExists', 'KEY_CONFLICT')
      })

      it('refuses a taken name or id, bad ids and times, and rows that do not fit the schema, writing nothing', async () => {
        const record = await tables.loadTable(BOT, (await tables.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })).id)
        await tablesError(tables.restoreTable(BOT, tableSnapshotOf(record)), 'AlreadyExists', 'TABLE_EXISTS')
        await tablesError(tables.restoreTable(BOT, { ...tableSnapshotOf(record), name: 'otherTable' }), 'AlreadyExists', 'TABLE_EXISTS')
        await tablesError(tables.restoreTable(BOT, { ...tableSnapshotOf(record), id: 'orders' }), 'InvalidJsonSchema', 'INVALID_SCHEMA')
        const at = '2026-01-01T00:00:00.000Z'
        const badId = await tablesError(tables.restoreRows(BOT, 'ordersTable', [{ id: 1, createdAt: at, updatedAt: at, total: 1 }, { id: 0, createdAt: at, updatedAt: at }]), 'InvalidDataFormat', 'INVALID_ROW')
        expect(badId.message).toContain('rows.1.id')
        const badTime = await tablesError(tables.restoreRows(BOT, 'ordersTable', [{ id: 1, createdAt: 'yesterday', updatedAt: at }], 5), 'InvalidDataFormat', 'INVALID_ROW')
        expect(badTime.message).toContain('rows.5.createdAt')
        await tablesError(tables.restoreRows(BOT, 'ordersTable', [{ id: 1, createdAt: at, updatedAt: at, total: 'many' }]), 'InvalidDataFormat', 'INVALID_ROW')
        expect(await rowCount('ordersTable')).toBe(0)
      })
    })

    describe('createTable', () => {
      it('creates a table from a JSON Schema, normalized, with the defaults', async () => {
        const table = await tables.createTable(BOT, { name: 'peopleTable', schema: people })
        expect(table.id).toMatch(/^table_/)
        expect(table).toMatchObject({ name: 'peopleTable', factor: 1, frozen: false, keyColumn: null, tags: {}, isComputeEnabled: false })
        expect(ms(table.createdAt)).toBe(START)
        expect(ms(table.updatedAt)).toBe(START)
        expect(table.schema.type).toBe('object')
        expect(columnIndexes(table)).toEqual([
          ['name', 0],
          ['age', 1],
          ['email', 2],
          ['active', 3],
          ['born', 4],
        ])
        expect(table.schema.properties['name']).toMatchObject({ type: 'string', 'x-zui': { searchable: true } })
        expect(table.schema.properties['born']).toMatchObject({ type: 'string', format: 'date-time' })
        expect(table.schema.required).toEqual(['name'])
        expect((await tables.getTable(BOT, 'peopleTable')).table).toEqual(table)
      })

      it('infers the columns of an example object', async () => {
        const table = await tables.createTable(BOT, { name: 'exampleTable', schema: { title: 'Ada', total: 36, ok: true, when: '2026-01-01T00:00:00Z', list: [1], meta: { a: 1 } } })
        const p = table.schema.properties
        expect([p['title']?.type, p['total']?.type, p['ok']?.type, p['when']?.format, p['list']?.items, p['meta']?.type]).toEqual([
          'string',
          'number',
          'boolean',
          'date-time',
          { type: 'number' },
          'object',
        ])
        expect(columnIndexes(table).map(([column]) => column)).toEqual(['title', 'total', 'ok', 'when', 'list', 'meta'])
      })

      it('reads a column map with x-zui (the zai form), nullable unions included', async () => {
        const table = await tables.createTable(BOT, {
          name: 'mapTable',
          schema: { text: { type: 'string', 'x-zui': { searchable: true } }, score: { type: ['number', 'null'] } },
        })
        expect(table.schema.properties['text']).toMatchObject({ type: 'string', 'x-zui': { searchable: true, index: 0 } })
        expect(table.schema.properties['score']).toMatchObject({ type: 'number', nullable: true, 'x-zui': { index: 1 } })
      })

      it('keeps the settings it is given', async () => {
        const table = await tables.createTable(BOT, {
          name: 'settingsTable',
          schema: { email: '', n: 0 },
          factor: 3,
          frozen: true,
          keyColumn: 'email',
          tags: { team: 'sales', env: 'prod' },
          isComputeEnabled: true,
        })
        expect(table).toMatchObject({ factor: 3, frozen: true, keyColumn: 'email', tags: { team: 'sales', env: 'prod' }, isComputeEnabled: true })
        const record = await tables.loadTable(BOT, table.id)
        expect(record).toMatchObject({ id: table.id, botId: BOT, name: 'settingsTable', factor: 3, frozen: true, keyColumn: 'email', tags: { team: 'sales', env: 'prod' } })
      })

      it('refuses bad names, taken names, bad columns and a key column that is not one, creating nothing', async () => {
        await tables.createTable(BOT, { name: 'takenTable', schema: { a: 1 } })
        await tablesError(tables.createTable(BOT, { name: 'people', schema: {} }), 'InvalidPayload', 'INVALID_REQUEST')
        await tablesError(tables.createTable(BOT, { name: 'bad-nameTable', schema: {} }), 'InvalidPayload', 'INVALID_REQUEST')
        await tablesError(tables.createTable(BOT, { name: 'takenTable', schema: { b: 1 } }), 'AlreadyExists', 'TABLE_EXISTS')
        await tablesError(tables.createTable(BOT, { name: 'aTable', schema: { type: 'object', properties: { a: { type: 'int' } } } }), 'InvalidJsonSchema', 'INVALID_SCHEMA')
        await tablesError(tables.createTable(BOT, { name: 'aTable', schema: { id: 1 } }), 'InvalidJsonSchema', 'INVALID_SCHEMA')
        await tablesError(tables.createTable(BOT, { name: 'aTable', schema: { a: 1 }, keyColumn: 'b' }), 'InvalidJsonSchema', 'INVALID_SCHEMA')
        await tablesError(
          tables.createTable(BOT, { name: 'aTable', schema: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, i])) }),
          'LimitExceeded',
          'LIMIT_EXCEEDED',
        )
        expect((await allTables({ pageSize: 100 })).map((t) => t.name)).toEqual(['takenTable'])
        // Names are per bot.
        expect((await tables.createTable(OTHER_BOT, { name: 'takenTable', schema: {} })).name).toBe('takenTable')
      })
    })

    describe('catalog reads', () => {
      it('gets a table by name or id with its row count, and refuses unknown ones and other bots\' tables', async () => {
        const table = await tables.createTable(BOT, { name: 'peopleTable', schema: people })
        await tables.createRows(BOT, 'peopleTable', [{ name: 'a' }, { name: 'b' }, { name: 'c' }])
        const byName = await tables.getTable(BOT, 'peopleTable')
        expect(byName).toEqual({ table, rows: 3, stale: 0, indexing: 0 })
        expect(await tables.getTable(BOT, table.id)).toEqual(byName)
        await tablesError(tables.getTable(BOT, 'missingTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.getTable(OTHER_BOT, 'peopleTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.getTable(OTHER_BOT, table.id), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.loadTable(BOT, 'table_01ARZ3NDEKTSV4RRFFQ69G5FAV'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
      })

      it('getOrCreateTable creates once, then returns the table as it is', async () => {
        const first = await tables.getOrCreateTable(BOT, 'ordersTable', { schema: { total: 0 }, tags: { a: 'b' } })
        expect(first).toMatchObject({ created: true, rows: 0, stale: 0, indexing: 0, table: { name: 'ordersTable', tags: { a: 'b' } } })
        await tables.createRows(BOT, 'ordersTable', [{ total: 1 }])
        advance(1_000)
        const again = await tables.getOrCreateTable(BOT, 'ordersTable', { schema: { other: 'x' } })
        expect(again).toEqual({ created: false, rows: 1, stale: 0, indexing: 0, table: first.table })
        await tablesError(tables.getOrCreateTable(BOT, 'orders', { schema: {} }), 'InvalidPayload', 'INVALID_REQUEST')
      })

      it('lists tables oldest first, in keyset pages that continue after a position', async () => {
        const made: Table[] = []
        for (const n of [0, 1, 2, 3, 4]) {
          made.push(await tables.createTable(BOT, { name: `t${n}Table`, schema: { n: 0 } }))
          advance(1_000)
        }
        await tables.createTable(OTHER_BOT, { name: 'theirsTable', schema: {} })
        expect(await tables.listTables(BOT, { pageSize: 10 })).toEqual({ tables: made })
        const first = await tables.listTables(BOT, { pageSize: 2 })
        expect(first.tables).toEqual(made.slice(0, 2))
        expect(first.next).toBeDefined()
        const second = await tables.listTables(BOT, { pageSize: 2, after: first.next! })
        expect(second.tables).toEqual(made.slice(2, 4))
        const third = await tables.listTables(BOT, { pageSize: 2, after: second.next! })
        expect(third).toEqual({ tables: made.slice(4) })
        expect((await tables.listTables(BOT, { pageSize: 5 })).next).toBeUndefined()
        expect(await tables.listTables('bot_without_tables', { pageSize: 5 })).toEqual({ tables: [] })
      })

      it('filters the list by tags, every given tag matching', async () => {
        await tables.createTable(BOT, { name: 'aTable', schema: {}, tags: { team: 'sales', env: 'prod' } })
        await tables.createTable(BOT, { name: 'bTable', schema: {}, tags: { team: 'sales', env: 'dev' } })
        await tables.createTable(BOT, { name: 'cTable', schema: {}, tags: { team: 'ops' } })
        await tables.createTable(BOT, { name: 'dTable', schema: {} })
        const names = async (tags: Record<string, string>, pageSize = 100) => (await allTables({ tags, pageSize })).map((t) => t.name).sort()
        expect(await names({ team: 'sales' })).toEqual(['aTable', 'bTable'])
        expect(await names({ team: 'sales' }, 1)).toEqual(['aTable', 'bTable'])
        expect(await names({ team: 'sales', env: 'dev' })).toEqual(['bTable'])
        expect(await names({ team: 'Sales' })).toEqual([])
        expect(await names({ nope: 'x' })).toEqual([])
        expect(await names({})).toEqual(['aTable', 'bTable', 'cTable', 'dTable'])
      })

      it('never skips or repeats a table across pages, even created at one instant and while others come and go', async () => {
        const made: Table[] = []
        for (let i = 0; i < 9; i++) made.push(await tables.createTable(BOT, { name: `same${i}Table`, schema: {} }))
        const seen: string[] = []
        const deleted = new Set<string>()
        let after: PagePosition | undefined
        for (let page = 0; page < 30; page++) {
          const result = await tables.listTables(BOT, { pageSize: 2, ...(after ? { after } : {}) })
          seen.push(...result.tables.map((t) => t.id))
          if (!result.next) break
          after = result.next
          advance(10)
          await tables.createTable(BOT, { name: `late${page}Table`, schema: {} })
          const victim = made.find((t) => !seen.includes(t.id) && !deleted.has(t.id))
          if (victim && page % 2 === 0) {
            deleted.add(victim.id)
            await tables.deleteTable(BOT, victim.id)
          }
        }
        expect(new Set(seen).size).toBe(seen.length)
        for (const table of made) if (!deleted.has(table.id)) expect(seen).toContain(table.id)
        for (const id of deleted) expect(seen).not.toContain(id)
      })
    })

    describe('table changes', () => {
      beforeEach(async () => {
        await tables.createTable(BOT, { name: 'peopleTable', schema: people })
        await tables.createRows(BOT, 'peopleTable', [
          { name: 'A', age: 1, email: 'a@x' },
          { name: 'B', email: 'b@x' },
        ])
        advance(1_000)
      })

      it('renames the table: the old name is free, the id still works', async () => {
        const before = await tables.loadTable(BOT, 'peopleTable')
        const { table } = await tables.updateTable(BOT, 'peopleTable', { name: 'humansTable' })
        expect(table).toMatchObject({ id: before.id, name: 'humansTable' })
        expect(ms(table.updatedAt)).toBe(START + 1_000)
        expect(ms(table.createdAt)).toBe(START)
        await tablesError(tables.getTable(BOT, 'peopleTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        expect(await rowCount('humansTable')).toBe(2)
        expect(await rowCount(before.id)).toBe(2)
        await tables.createTable(BOT, { name: 'otherTable', schema: {} })
        await tablesError(tables.updateTable(BOT, 'humansTable', { name: 'otherTable' }), 'AlreadyExists', 'TABLE_EXISTS')
        await tablesError(tables.updateTable(BOT, 'humansTable', { name: 'humans' }), 'InvalidPayload', 'INVALID_REQUEST')
      })

      it('replaces tags, raises the factor only, and switches isComputeEnabled', async () => {
        await tables.updateTable(BOT, 'peopleTable', { tags: { a: '1', b: '2' } })
        const { table } = await tables.updateTable(BOT, 'peopleTable', { tags: { c: '3' }, factor: 2, isComputeEnabled: true })
        expect(table).toMatchObject({ tags: { c: '3' }, factor: 2, isComputeEnabled: true })
        await tablesError(tables.updateTable(BOT, 'peopleTable', { factor: 1 }), 'InvalidPayload', 'INVALID_REQUEST')
        expect((await tables.getTable(BOT, 'peopleTable')).table).toEqual(table)
      })

      it('merges the schema column by column: adds, removes with null, keeps the others and their data', async () => {
        const { table } = await tables.updateTable(BOT, 'peopleTable', { schema: { note: { type: 'string' }, born: null } })
        expect(columnIndexes(table).slice(0, 4)).toEqual([
          ['name', 0],
          ['age', 1],
          ['email', 2],
          ['active', 3],
        ])
        // A new column comes after the kept ones.
        expect(columnIndexes(table).slice(4).map(([column]) => column)).toEqual(['note'])
        expect(table.schema.properties['note']!['x-zui'].index).toBeGreaterThan(3)
        const row = await tables.getRow(BOT, 'peopleTable', 1)
        expect(row).toMatchObject({ id: 1, name: 'A', age: 1, email: 'a@x', note: null })
        expect(row).not.toHaveProperty('born')
        await tables.updateRows(BOT, 'peopleTable', [{ id: 1, note: 'hello' }])
        expect(await tables.getRow(BOT, 'peopleTable', 1)).toMatchObject({ note: 'hello' })
      })

      it('resets the values of a column whose type changes, as Botpress does', async () => {
        await tables.updateTable(BOT, 'peopleTable', { schema: { age: { type: 'string' } } })
        const rows = (await tables.findRows(BOT, 'peopleTable', { limit: 10 })).rows
        expect(rows.map((row) => row['age'])).toEqual(rows.map(() => null))
        await tables.updateRows(BOT, 'peopleTable', [{ id: rows[0]!.id, age: 'forty' }])
        expect(await tables.getRow(BOT, 'peopleTable', rows[0]!.id)).toMatchObject({ age: 'forty' })
      })

      it('refuses a schema change existing rows break, changing nothing', async () => {
        const before = await tables.getTable(BOT, 'peopleTable')
        await tablesError(tables.updateTable(BOT, 'peopleTable', { schema: { email: { type: 'string', format: 'date-time' } } }), 'BreakingChanges', 'BREAKING_CHANGE')
        await tablesError(tables.updateTable(BOT, 'peopleTable', { schema: { type: 'object', properties: {}, required: ['age'] } }), 'BreakingChanges', 'BREAKING_CHANGE')
        expect(await tables.getTable(BOT, 'peopleTable')).toEqual(before)
        expect(await tables.getRow(BOT, 'peopleTable', 2)).toMatchObject({ email: 'b@x' })
      })

      it('sets and removes the key column, refusing one with duplicate values', async () => {
        await tables.createRows(BOT, 'peopleTable', [{ name: 'A' }])
        await tablesError(tables.updateTable(BOT, 'peopleTable', { keyColumn: 'name' }), 'AlreadyExists', 'KEY_CONFLICT')
        expect((await tables.updateTable(BOT, 'peopleTable', { keyColumn: 'email' })).table.keyColumn).toBe('email')
        await tablesError(tables.createRows(BOT, 'peopleTable', [{ name: 'C', email: 'a@x' }]), 'AlreadyExists', 'KEY_CONFLICT')
        expect((await tables.updateTable(BOT, 'peopleTable', { keyColumn: null })).table.keyColumn).toBeNull()
        expect((await tables.createRows(BOT, 'peopleTable', [{ name: 'C', email: 'a@x' }])).rows).toHaveLength(1)
      })

      it('freezes name, schema and key column, keeping rows, tags and factor writable', async () => {
        await tables.updateTable(BOT, 'peopleTable', { frozen: true })
        await tablesError(tables.updateTable(BOT, 'peopleTable', { schema: { x: 1 } }), 'ResourceLockedConflict', 'TABLE_FROZEN')
        await tablesError(tables.updateTable(BOT, 'peopleTable', { name: 'frozenTable' }), 'ResourceLockedConflict', 'TABLE_FROZEN')
        await tablesError(tables.updateTable(BOT, 'peopleTable', { keyColumn: 'email' }), 'ResourceLockedConflict', 'TABLE_FROZEN')
        await tablesError(tables.renameColumn(BOT, 'peopleTable', 'age', 'years'), 'ResourceLockedConflict', 'TABLE_FROZEN')
        expect((await tables.updateTable(BOT, 'peopleTable', { tags: { ok: 'yes' }, factor: 2 })).table).toMatchObject({ frozen: true, tags: { ok: 'yes' }, factor: 2 })
        expect((await tables.createRows(BOT, 'peopleTable', [{ name: 'C' }])).rows).toHaveLength(1)
      })

      it('renames a column: its data, filters and search follow', async () => {
        const table = await tables.renameColumn(BOT, 'peopleTable', 'name', 'fullName')
        expect(columnIndexes(table)[0]).toEqual(['fullName', 0])
        expect(table.schema.required).toEqual(['fullName'])
        expect(await tables.getRow(BOT, 'peopleTable', 1)).toMatchObject({ fullName: 'A' })
        expect((await tables.findRows(BOT, 'peopleTable', { filter: { fullName: 'B' } })).rows.map((r) => r.id)).toEqual([2])
        expect((await tables.findRows(BOT, 'peopleTable', { search: 'B' })).rows.map((r) => r.id)).toEqual([2])
        await tablesError(tables.renameColumn(BOT, 'peopleTable', 'nope', 'x'), 'ResourceNotFound', 'INVALID_REQUEST')
        await tablesError(tables.renameColumn(BOT, 'peopleTable', 'age', 'email'), 'AlreadyExists', 'INVALID_REQUEST')
      })

      it('duplicates a table with its rows (unfrozen) or its schema only', async () => {
        await tables.updateTable(BOT, 'peopleTable', { frozen: true, tags: { t: '1' } })
        const source = await tables.findRows(BOT, 'peopleTable', {})
        advance(1_000)
        const copy = await tables.duplicateTable(BOT, 'peopleTable')
        expect(copy.rows).toBe(2)
        expect(copy.table).toMatchObject({ name: 'peopleCopyTable', frozen: false, tags: { t: '1' } })
        expect(ms(copy.table.createdAt)).toBe(START + 2_000)
        // Rows keep their ids and values.
        const values = (rows: Row[]) => rows.map(({ createdAt: _c, updatedAt: _u, ...row }) => row)
        expect(values((await tables.findRows(BOT, 'peopleCopyTable', {})).rows)).toEqual(values(source.rows))
        const second = await tables.duplicateTable(BOT, 'peopleTable')
        expect(second.table.name).not.toBe('peopleCopyTable')
        const empty = await tables.duplicateTable(BOT, 'peopleTable', { tableName: 'emptyTable', schemaOnly: true })
        expect(empty.rows).toBe(0)
        expect(empty.table.schema).toEqual(copy.table.schema)
        await tablesError(tables.duplicateTable(BOT, 'peopleTable', { tableName: 'emptyTable' }), 'AlreadyExists', 'TABLE_EXISTS')
        // The copy is a table of its own.
        await tables.deleteRows(BOT, 'peopleCopyTable', { deleteAllRows: true })
        expect(await rowCount('peopleTable')).toBe(2)
      })

      it('deletes a table with its rows and jobs; the name is free again', async () => {
        const record = await tables.loadTable(BOT, 'peopleTable')
        const job = await tables.createJob(BOT, record.id, 'export')
        await tables.deleteTable(BOT, 'peopleTable')
        await tablesError(tables.getTable(BOT, record.id), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.getRow(BOT, 'peopleTable', 1), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        expect(await tables.getJob(job.id)).toBeUndefined()
        await tablesError(tables.deleteTable(BOT, 'peopleTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tables.createTable(BOT, { name: 'peopleTable', schema: people })
        expect(await rowCount('peopleTable')).toBe(0)
      })
    })

    describe('rows', () => {
      beforeEach(async () => {
        await tables.createTable(BOT, { name: 'peopleTable', schema: people, keyColumn: 'email' })
      })

      it('creates rows with ids, timestamps, computed {}, nulls for missing columns and warnings for unknown ones', async () => {
        advance(500)
        const { rows, warnings } = await tables.createRows(BOT, 'peopleTable', [
          { name: 'Ada', age: 36, born: '1815-12-10T00:00:00+01:00', extra: 1 },
          { name: 'Alan', active: false },
        ])
        expect(rows).toHaveLength(2)
        expect(rows[0]).toMatchObject({ id: 1, computed: {}, name: 'Ada', age: 36, email: null, active: null, born: '1815-12-09T23:00:00.000Z' })
        expect(rows[1]).toMatchObject({ id: 2, name: 'Alan', active: false, age: null })
        expect(ms(rows[0]!.createdAt)).toBe(START + 500)
        expect(ms(rows[0]!.updatedAt)).toBe(START + 500)
        expect(rows[0]).not.toHaveProperty('extra')
        expect(warnings).toEqual([expect.stringContaining('extra')])
        expect(await tables.getRow(BOT, 'peopleTable', 1)).toEqual(rows[0])
        const { id: tableId } = await tables.loadTable(BOT, 'peopleTable')
        expect(await tables.getRow(BOT, tableId, 2)).toEqual(rows[1])
      })

      it('writes all rows or none: one bad value refuses the batch, naming row and column', async () => {
        const error = await tablesError(tables.createRows(BOT, 'peopleTable', [{ name: 'Ok' }, { name: 'Bad', age: 'old' }, { age: 3 }]), 'InvalidDataFormat', 'INVALID_ROW')
        expect(error.message).toContain('rows.1.age')
        expect(error.message).toContain('rows.2.name')
        expect(await rowCount('peopleTable')).toBe(0)
        await tables.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x' }])
        const conflict = await tablesError(tables.createRows(BOT, 'peopleTable', [{ name: 'B', email: 'b@x' }, { name: 'C', email: 'a@x' }]), 'AlreadyExists', 'KEY_CONFLICT')
        expect(conflict.message).toContain('rows.1.email')
        expect(await rowCount('peopleTable')).toBe(1)
      })

      it('takes 1 to 1000 rows per write', async () => {
        await tablesError(tables.createRows(BOT, 'peopleTable', []), 'InvalidPayload', 'INVALID_REQUEST')
        await tablesError(tables.createRows(BOT, 'peopleTable', Array.from({ length: 1001 }, (_, i) => ({ name: `n${i}` }))), 'InvalidPayload', 'INVALID_REQUEST')
        expect((await tables.createRows(BOT, 'peopleTable', Array.from({ length: 1000 }, (_, i) => ({ name: `n${i}` })))).rows).toHaveLength(1000)
        await tablesError(tables.updateRows(BOT, 'peopleTable', []), 'InvalidPayload', 'INVALID_REQUEST')
        await tablesError(tables.upsertRows(BOT, 'peopleTable', []), 'InvalidPayload', 'INVALID_REQUEST')
      })

      it('refuses an unknown row id, and rows of an unknown table', async () => {
        await tablesError(tables.getRow(BOT, 'peopleTable', 1), 'ResourceNotFound', 'ROW_NOT_FOUND')
        await tablesError(tables.createRows(BOT, 'missingTable', [{ name: 'x' }]), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.createRows(OTHER_BOT, 'peopleTable', [{ name: 'x' }]), 'ResourceNotFound', 'TABLE_NOT_FOUND')
      })

      it('updates the named columns only, clears with null, and refuses unknown ids without writing', async () => {
        const { rows: created } = await tables.createRows(BOT, 'peopleTable', [{ name: 'A', age: 1, email: 'a@x' }, { name: 'B' }])
        advance(2_000)
        const { rows } = await tables.updateRows(BOT, 'peopleTable', [{ id: 1, age: 2, email: null }])
        expect(rows).toEqual([{ ...created[0], age: 2, email: null, updatedAt: rows[0]!.updatedAt }])
        expect(ms(rows[0]!.updatedAt)).toBe(START + 2_000)
        expect(await tables.getRow(BOT, 'peopleTable', 1)).toEqual(rows[0])
        await tablesError(tables.updateRows(BOT, 'peopleTable', [{ id: 1, age: 3 }, { id: 99, age: 3 }]), 'ResourceNotFound', 'ROW_NOT_FOUND')
        await tablesError(tables.updateRows(BOT, 'peopleTable', [{ id: 2, age: 5 }, { id: 1, name: null }]), 'InvalidDataFormat', 'INVALID_ROW')
        expect(await tables.getRow(BOT, 'peopleTable', 1)).toEqual(rows[0])
        expect(await tables.getRow(BOT, 'peopleTable', 2)).toEqual(created[1])
      })

      it('upserts on id: inserts rows without one, updates rows with one, refuses unknown ids', async () => {
        await tables.createRows(BOT, 'peopleTable', [{ name: 'A' }])
        const result = await tables.upsertRows(BOT, 'peopleTable', [{ id: 1, name: 'A2' }, { name: 'B' }])
        expect(result.updated.map((r) => [r.id, r['name']])).toEqual([[1, 'A2']])
        expect(result.inserted.map((r) => [r.id, r['name']])).toEqual([[2, 'B']])
        await tablesError(tables.upsertRows(BOT, 'peopleTable', [{ name: 'C' }, { id: 42, name: 'x' }]), 'ResourceNotFound', 'ROW_NOT_FOUND')
        expect(await rowCount('peopleTable')).toBe(2)
      })

      it('upserts on a key column: updates matches, inserts the rest, in request order', async () => {
        await tables.createRows(BOT, 'peopleTable', [{ name: 'A', email: 'a@x', age: 1 }])
        const result = await tables.upsertRows(BOT, 'peopleTable', [{ email: 'a@x', age: 2 }, { email: 'b@x', name: 'B' }, { email: 'b@x', age: 5 }], 'email')
        expect(result.updated.map((r) => [r.id, r['name'], r['age']])).toEqual([[1, 'A', 2]])
        expect(result.inserted.map((r) => [r.id, r['name'], r['age']])).toEqual([[2, 'B', 5]])
        await tablesError(tables.upsertRows(BOT, 'peopleTable', [{ name: 'no key' }], 'email'), 'InvalidDataFormat', 'INVALID_ROW')
        await tablesError(tables.upsertRows(BOT, 'peopleTable', [{ name: 'x' }], 'nope'), 'InvalidQuery', 'INVALID_QUERY')
        expect(await rowCount('peopleTable')).toBe(2)
      })

      it('deletes rows by ids, by filter, or all of them (exactly one way), never reusing ids', async () => {
        await tables.createRows(BOT, 'peopleTable', [
          { name: 'A', age: 1 },
          { name: 'B', age: 2 },
          { name: 'C', age: 3 },
          { name: 'D', age: 4 },
        ])
        expect(await tables.deleteRows(BOT, 'peopleTable', { ids: [1, 99] })).toEqual({ deletedRows: 1 })
        expect(await tables.deleteRows(BOT, 'peopleTable', { filter: { age: { $gte: 3 } } })).toEqual({ deletedRows: 2 })
        await tablesError(tables.deleteRows(BOT, 'peopleTable', { ids: [2], deleteAllRows: true }), 'InvalidPayload', 'INVALID_REQUEST')
        await tablesError(tables.deleteRows(BOT, 'peopleTable', {}), 'InvalidPayload', 'INVALID_REQUEST')
        expect(await rowCount('peopleTable')).toBe(1)
        expect(await tables.deleteRows(BOT, 'peopleTable', { deleteAllRows: true })).toEqual({ deletedRows: 1 })
        expect(await rowCount('peopleTable')).toBe(0)
        expect((await tables.createRows(BOT, 'peopleTable', [{ name: 'E' }])).rows[0]!.id).toBe(5)
      })
    })

    describe('findRows', () => {
      beforeEach(async () => {
        await tables.createTable(BOT, { name: 'peopleTable', schema: people })
        await tables.createRows(BOT, 'peopleTable', [
          { name: 'Ada Lovelace', age: 36, active: true, email: 'ada@x' },
          { name: 'Alan Turing', age: 41, active: false },
          { name: 'Grace Hopper', age: 85, active: true },
          { name: 'Linus', active: true },
          { name: 'Edsger Dijkstra', age: 41, active: false },
        ])
      })

      const ids = (rows: Row[]) => rows.map((r) => r.id)

      it('filters with equality, comparisons, $in, $or and on system columns', async () => {
        const find = async (filter: Record<string, unknown>) => ids((await tables.findRows(BOT, 'peopleTable', { filter })).rows)
        expect(await find({ active: true })).toEqual([1, 3, 4])
        expect(await find({ age: { $gt: 40 } })).toEqual([2, 3, 5])
        expect(await find({ age: { $in: [36, 85] } })).toEqual([1, 3])
        expect(await find({ $or: [{ age: 36 }, { name: 'Linus' }] })).toEqual([1, 4])
        expect(await find({ email: { $exists: true } })).toEqual([1])
        expect(await find({ id: { $gte: 4 } })).toEqual([4, 5])
        expect(await find({ name: { $regex: '^a', $options: 'i' } })).toEqual([1, 2])
        await tablesError(tables.findRows(BOT, 'peopleTable', { filter: { nope: 1 } }), 'InvalidQuery', 'INVALID_QUERY')
        await tablesError(tables.findRows(BOT, 'peopleTable', { filter: { age: { $near: 1 } } }), 'InvalidQuery', 'INVALID_QUERY')
      })

      it('orders by a column either way with the id as tie-breaker, and pages with limit, offset and hasMore', async () => {
        const page = await tables.findRows(BOT, 'peopleTable', { orderBy: 'age', orderDirection: 'desc', limit: 3 })
        expect(ids(page.rows)).toEqual([3, 2, 5])
        expect(page).toMatchObject({ hasMore: true, offset: 0, limit: 3 })
        const next = await tables.findRows(BOT, 'peopleTable', { orderBy: 'age', orderDirection: 'desc', limit: 3, offset: 3 })
        expect(ids(next.rows)).toHaveLength(2)
        expect(ids(next.rows)[0]).toBe(1)
        expect(next).toMatchObject({ hasMore: false, offset: 3, limit: 3 })
        const asc = await tables.findRows(BOT, 'peopleTable', { orderBy: 'age', orderDirection: 'asc', filter: { age: { $exists: true } } })
        expect(ids(asc.rows)).toEqual([1, 2, 5, 3])
        const exact = await tables.findRows(BOT, 'peopleTable', { limit: 5 })
        expect(exact.hasMore).toBe(false)
        const defaults = await tables.findRows(BOT, 'peopleTable', {})
        expect(defaults).toMatchObject({ offset: 0, limit: 100, hasMore: false })
        expect(ids(defaults.rows)).toEqual([1, 2, 3, 4, 5])
        await tablesError(tables.findRows(BOT, 'peopleTable', { orderBy: 'nope' }), 'InvalidQuery', 'INVALID_QUERY')
      })

      it('selects columns, always keeping the system ones', async () => {
        const { rows } = await tables.findRows(BOT, 'peopleTable', { select: ['name'], limit: 1 })
        expect(Object.keys(rows[0]!).sort()).toEqual(['computed', 'createdAt', 'id', 'name', 'updatedAt'])
      })

      it('groups with key, count, sum, avg, min, max and unique', async () => {
        const { rows } = await tables.findRows(BOT, 'peopleTable', { group: { active: 'key', age: ['count', 'sum', 'avg', 'min', 'max'], name: 'unique' } })
        expect(rows).toEqual([
          { activeKey: false, ageCount: 2, ageSum: 82, ageAvg: 41, ageMin: 41, ageMax: 41, nameUnique: expect.arrayContaining(['Alan Turing', 'Edsger Dijkstra']) },
          { activeKey: true, ageCount: 2, ageSum: 121, ageAvg: 60.5, ageMin: 36, ageMax: 85, nameUnique: expect.arrayContaining(['Ada Lovelace', 'Grace Hopper', 'Linus']) },
        ])
        await tablesError(tables.findRows(BOT, 'peopleTable', { group: { name: 'sum' } }), 'InvalidQuery', 'INVALID_QUERY')
      })

      it('searches the searchable columns, with a similarity', async () => {
        const { rows } = await tables.findRows(BOT, 'peopleTable', { search: 'grace' })
        expect(rows.map((r) => r['name'])).toEqual(['Grace Hopper'])
        expect(rows[0]!.similarity).toBeGreaterThan(0)
        expect(rows[0]!.similarity).toBeLessThanOrEqual(1)
        const filtered = await tables.findRows(BOT, 'peopleTable', { search: 'alan ada', filter: { age: { $lt: 40 } } })
        expect(filtered.rows.map((r) => r['name'])).toEqual(['Ada Lovelace'])
        await tables.createTable(BOT, { name: 'plainTable', schema: { n: 0 } })
        await tablesError(tables.findRows(BOT, 'plainTable', { search: 'x' }), 'InvalidQuery', 'INVALID_QUERY')
      })
    })

    describe('importRows', () => {
      beforeEach(async () => {
        await tables.createTable(BOT, { name: 'scoresTable', schema: { player: { type: 'string' }, score: { type: 'number' } }, keyColumn: 'player' })
      })

      it('importRows inserts any number of rows at once, all or nothing, numbering errors from firstRowIndex', async () => {
        const many = Array.from({ length: 1_500 }, (_, i) => ({ player: `p${i}`, score: i }))
        expect(await tables.importRows(BOT, 'scoresTable', many)).toEqual({ inserted: 1_500, ids: Array.from({ length: 1_500 }, (_, i) => i + 1), warnings: [] })
        expect(await rowCount('scoresTable')).toBe(1_500)
        expect(await tables.getRow(BOT, 'scoresTable', 1_500)).toMatchObject({ player: 'p1499', score: 1_499 })

        const bad = [{ player: 'q0', score: 0 }, { player: 'q1', score: 'NaN' }]
        const error = await tablesError(tables.importRows(BOT, 'scoresTable', bad, 1_000), 'InvalidDataFormat', 'INVALID_ROW')
        expect(error.message).toContain('rows.1001.score')
        const fromZero = await tablesError(tables.importRows(BOT, 'scoresTable', bad), 'InvalidDataFormat', 'INVALID_ROW')
        expect(fromZero.message).toContain('rows.1.score')
        expect(await rowCount('scoresTable')).toBe(1_500)

        const withExtra = await tables.importRows(BOT, 'scoresTable', [{ player: 'z', score: 1, level: 3 }], 7)
        expect(withExtra.inserted).toBe(1)
        expect(withExtra.warnings).toEqual([expect.stringContaining('level')])
      })
    })

    describe("getTable's row count (decision 1474)", () => {
      it('is exact after inserts, deletes, an import, a duplicate and concurrent writers', async () => {
        await tables.createTable(BOT, { name: 'countedTable', schema: { n: { type: 'number' } } })
        const count = async (ref = 'countedTable') => (await tables.getTable(BOT, ref)).rows
        expect(await count()).toBe(0)
        await tables.createRows(BOT, 'countedTable', Array.from({ length: 300 }, (_, n) => ({ n })))
        expect(await count()).toBe(300)
        await tables.deleteRows(BOT, 'countedTable', { filter: { n: { $lt: 100 } } })
        await tables.deleteRows(BOT, 'countedTable', { ids: [150, 151, 99_999] })
        expect(await count()).toBe(198)
        await tables.importRows(BOT, 'countedTable', Array.from({ length: 1_200 }, (_, n) => ({ n })))
        expect(await count()).toBe(1_398)
        const job = (await tables.createJob(BOT, (await tables.getTable(BOT, 'countedTable')).table.id, 'import')).id
        await tables.stageImportRows(BOT, 'countedTable', job, Array.from({ length: 50 }, (_, n) => ({ n })), 0)
        expect(await count()).toBe(1_398)
        await tables.publishImportRows(BOT, 'countedTable', job, 0, 50)
        await tables.dropImportStaging(job)
        expect(await count()).toBe(1_448)
        const copy = await tables.duplicateTable(BOT, 'countedTable', { tableName: 'countedCopyTable' })
        expect(copy.rows).toBe(1_448)
        expect(await count('countedCopyTable')).toBe(1_448)
        await Promise.all([
          ...Array.from({ length: 8 }, (_, i) => tables.createRows(BOT, 'countedTable', [{ n: -i }, { n: -i }])),
          tables.deleteRows(BOT, 'countedTable', { filter: { n: { $gte: 1_000 } } }),
        ])
        const { rows } = await tables.findRows(BOT, 'countedTable', { group: { id: 'count' } })
        expect(await count()).toBe(rows[0]!['idCount'])
        expect(await count()).toBe(1_448 + 16 - 200)
        await tables.deleteRows(BOT, 'countedTable', { deleteAllRows: true })
        expect(await count()).toBe(0)
      })
    })

    describe('import staging (decision 1473)', () => {
      beforeEach(async () => {
        await tables.createTable(BOT, { name: 'stagedTable', schema: { player: { type: 'string' }, score: { type: 'number' } }, keyColumn: 'player' })
      })
      const rowsFrom = (first: number, count: number) => Array.from({ length: count }, (_, i) => ({ player: `p${first + i}`, score: first + i }))
      const importJob = async () => (await tables.createJob(BOT, (await tables.getTable(BOT, 'stagedTable')).table.id, 'import')).id

      it('stages rows no read sees, resumes after the rows staged, and publishes them in file order with the resume point', async () => {
        const job = await importJob()
        expect(await tables.stagedImportRows(job)).toBe(0)
        expect(await tables.stageImportRows(BOT, 'stagedTable', job, rowsFrom(0, 1_000), 0)).toEqual({ warnings: [] })
        // A crashed attempt resumes from what is staged; a step that does not follow it is refused.
        expect(await tables.stagedImportRows(job)).toBe(1_000)
        await tablesError(tables.stageImportRows(BOT, 'stagedTable', job, rowsFrom(0, 10), 0), 'InvalidPayload', 'INVALID_REQUEST')
        const { warnings } = await tables.stageImportRows(BOT, 'stagedTable', job, [...rowsFrom(1_000, 499), { player: 'p1499', score: 1_499, level: 3 }], 1_000)
        expect(warnings).toEqual([expect.stringContaining('level')])
        expect(await tables.stagedImportRows(job)).toBe(1_500)
        expect((await tables.getTable(BOT, 'stagedTable')).rows).toBe(0)
        expect((await tables.findRows(BOT, 'stagedTable', {})).rows).toEqual([])

        const first = await tables.publishImportRows(BOT, 'stagedTable', job, 0, 600)
        expect(first).toEqual({ published: 600, ids: Array.from({ length: 600 }, (_, i) => i + 1) })
        expect((await tables.getJob(job))!.rowsCommitted).toBe(600)
        // The same step again (an attempt that did not see its commit) writes nothing.
        await tablesError(tables.publishImportRows(BOT, 'stagedTable', job, 0, 600), 'InvalidPayload', 'INVALID_REQUEST')
        expect((await tables.getTable(BOT, 'stagedTable')).rows).toBe(600)
        expect((await tables.publishImportRows(BOT, 'stagedTable', job, 600, 5_000)).published).toBe(900)
        expect(await tables.publishImportRows(BOT, 'stagedTable', job, 1_500, 100)).toEqual({ published: 0, ids: [] })
        expect((await tables.getTable(BOT, 'stagedTable')).rows).toBe(1_500)
        expect(await tables.getRow(BOT, 'stagedTable', 1_500)).toMatchObject({ player: 'p1499', score: 1_499 })
        await tables.dropImportStaging(job)
        expect(await tables.stagedImportRows(job)).toBe(0)
      })

      it('refuses a bad row or a key value stored or staged before, numbered in the file, staging nothing of the step', async () => {
        await tables.createRows(BOT, 'stagedTable', [{ player: 'taken', score: 0 }])
        const job = await importJob()
        await tables.stageImportRows(BOT, 'stagedTable', job, rowsFrom(0, 10), 0)
        const bad = await tablesError(tables.stageImportRows(BOT, 'stagedTable', job, [{ player: 'x', score: 1 }, { player: 'y', score: 'high' }], 10), 'InvalidDataFormat', 'INVALID_ROW')
        expect(bad.message).toContain('rows.11.score')
        const stored = await tablesError(tables.stageImportRows(BOT, 'stagedTable', job, [{ player: 'x' }, { player: 'taken' }], 10), 'AlreadyExists', 'KEY_CONFLICT')
        expect(stored.message).toContain('rows.11.player')
        const again = await tablesError(tables.stageImportRows(BOT, 'stagedTable', job, [{ player: 'x' }, { player: 'y' }, { player: 'p3' }], 10), 'AlreadyExists', 'KEY_CONFLICT')
        expect(again.message).toContain('rows.12.player')
        const twice = await tablesError(tables.stageImportRows(BOT, 'stagedTable', job, [{ player: 'x' }, { player: 'x' }], 10), 'AlreadyExists', 'KEY_CONFLICT')
        expect(twice.message).toContain('rows.11.player')
        expect(await tables.stagedImportRows(job)).toBe(10)
        await tables.dropImportStaging(job)
      })

      it('refuses to publish a step whose key value was written to the table since it was staged, writing nothing of it', async () => {
        const job = await importJob()
        await tables.stageImportRows(BOT, 'stagedTable', job, rowsFrom(0, 20), 0)
        await tables.publishImportRows(BOT, 'stagedTable', job, 0, 10)
        await tables.createRows(BOT, 'stagedTable', [{ player: 'p15', score: -1 }])
        const error = await tablesError(tables.publishImportRows(BOT, 'stagedTable', job, 10, 10), 'AlreadyExists', 'KEY_CONFLICT')
        expect(error.message).toContain('rows.15.player')
        expect((await tables.getTable(BOT, 'stagedTable')).rows).toBe(11)
        expect((await tables.getJob(job))!.rowsCommitted).toBe(10)
        await tables.dropImportStaging(job)
      })
    })

    describe('storedBytes', () => {
      const notes = { type: 'object', properties: { name: { type: 'string' }, note: { type: 'string' } } } as const

      it('sums the UTF-8 bytes of the stored values, following writes, updates, deletes and renames', async () => {
        await tables.createTable(BOT, { name: 'notesTable', schema: notes })
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(0)
        await tables.createRows(BOT, 'notesTable', [{ name: 'café', note: 'ab' }, { name: 'x' }])
        // "café" is 5 bytes in UTF-8; a missing value counts nothing; ids and times are not counted.
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(8)
        await tables.updateRows(BOT, 'notesTable', [{ id: 2, note: 'hello' }])
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(13)
        await tables.deleteRows(BOT, 'notesTable', { ids: [1] })
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(6)
        await tables.renameColumn(BOT, 'notesTable', 'note', 'remark')
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(6)
        await tables.importRows(BOT, 'notesTable', [{ name: 'y'.repeat(1_000) }], 0)
        expect(await tables.storedBytes(BOT, 'notesTable')).toBe(1_006)
      })

      it("measures one bot's table only, and a missing table is ResourceNotFound", async () => {
        const table = await tables.createTable(BOT, { name: 'notesTable', schema: notes })
        await tables.createTable(OTHER_BOT, { name: 'notesTable', schema: notes })
        await tables.createRows(OTHER_BOT, 'notesTable', [{ name: 'other' }])
        expect(await tables.storedBytes(BOT, table.id)).toBe(0)
        expect(await tables.storedBytes(OTHER_BOT, 'notesTable')).toBe(5)
        await tablesError(tables.storedBytes(BOT, 'missingTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
        await tablesError(tables.storedBytes(OTHER_BOT, table.id), 'ResourceNotFound', 'TABLE_NOT_FOUND')
      })

      it('counts every kind of value (numbers, booleans, objects) as more than nothing', async () => {
        await tables.createTable(BOT, { name: 'mixedTable', schema: { type: 'object', properties: { total: { type: 'number' }, done: { type: 'boolean' }, meta: { type: 'object' } } } })
        await tables.createRows(BOT, 'mixedTable', [{ total: 12 }])
        const number = await tables.storedBytes(BOT, 'mixedTable')
        expect(number).toBeGreaterThanOrEqual(2)
        await tables.createRows(BOT, 'mixedTable', [{ done: true, meta: { a: 'b' } }])
        // Each engine writes booleans and objects as text its own way: at least 1 byte, and the JSON's 9 bytes.
        expect(await tables.storedBytes(BOT, 'mixedTable')).toBeGreaterThanOrEqual(number + 1 + 9)
      })
    })

    describe('table jobs', () => {
      let tableId: string
      beforeEach(async () => {
        tableId = (await tables.createTable(BOT, { name: 'ordersTable', schema: { total: 0 } })).id
      })

      it('records a job in pending; getJob adds no error and no committed rows yet', async () => {
        advance(100)
        const job = await tables.createJob(BOT, tableId, 'import', { inputFileId: 'file_in' })
        expect(job).toMatchObject({ botId: BOT, tableId, type: 'import', status: 'pending', progress: 0, inputFileId: 'file_in', outputFileId: null })
        expect(job.id).toEqual(expect.any(String))
        expect(ms(job.createdAt)).toBe(START + 100)
        expect(ms(job.updatedAt)).toBe(START + 100)
        expect(await tables.getJob(job.id)).toEqual({ ...job, error: null, rowsCommitted: 0 })
        const exportJob = await tables.createJob(BOT, tableId, 'export')
        expect(exportJob).toMatchObject({ type: 'export', inputFileId: null, outputFileId: null })
        expect(await tables.getJob('tjob_missing')).toBeUndefined()
      })

      it('moves a job along: status, progress, resume point, output file, failure reason', async () => {
        const job = await tables.createJob(BOT, tableId, 'import', { inputFileId: 'file_in' })
        advance(1_000)
        const running = await tables.updateJob(job.id, { status: 'in_progress', progress: 0.25 })
        expect(running).toMatchObject({ id: job.id, status: 'in_progress', progress: 0.25 })
        expect(ms(running.updatedAt)).toBe(START + 1_000)
        expect(ms(running.createdAt)).toBe(START)

        advance(1_000)
        await tables.updateJob(job.id, { rowsCommitted: 1_000, progress: 0.75 })
        expect(await tables.getJob(job.id)).toMatchObject({ status: 'in_progress', progress: 0.75, rowsCommitted: 1_000, error: null })

        const failed = await tables.updateJob(job.id, { status: 'failed', error: 'rows.1203.total: expected number' })
        expect(failed).toMatchObject({ status: 'failed', error: 'rows.1203.total: expected number' })
        expect(await tables.getJob(job.id)).toMatchObject({ status: 'failed', error: 'rows.1203.total: expected number', rowsCommitted: 1_000, progress: 0.75 })

        const exportJob = await tables.createJob(BOT, tableId, 'export')
        const done = await tables.updateJob(exportJob.id, { status: 'completed', progress: 1, outputFileId: 'file_out' })
        expect(done).toMatchObject({ status: 'completed', progress: 1, outputFileId: 'file_out' })
        expect(await tables.getJob(exportJob.id)).toMatchObject({ status: 'completed', outputFileId: 'file_out', error: null, rowsCommitted: 0 })
      })

      it('changes only the fields a change names', async () => {
        const job = await tables.createJob(BOT, tableId, 'import', { inputFileId: 'file_in' })
        await tables.updateJob(job.id, { status: 'failed', error: 'bad header', rowsCommitted: 5, outputFileId: 'file_x' })
        await tables.updateJob(job.id, { progress: 1 })
        expect(await tables.getJob(job.id)).toMatchObject({ status: 'failed', error: 'bad header', rowsCommitted: 5, outputFileId: 'file_x', inputFileId: 'file_in', progress: 1 })
      })

      it('lists the jobs of a table newest first, failure reasons included', async () => {
        const other = (await tables.createTable(BOT, { name: 'otherTable', schema: {} })).id
        const a = await tables.createJob(BOT, tableId, 'export')
        advance(1_000)
        const b = await tables.createJob(BOT, tableId, 'import', { inputFileId: 'file_1' })
        advance(1_000)
        await tables.createJob(BOT, other, 'export')
        const c = await tables.createJob(BOT, tableId, 'export')
        await tables.updateJob(b.id, { status: 'failed', error: 'no rows' })
        const listed = await tables.listJobs(BOT, 'ordersTable')
        expect(listed.map((j) => j.id)).toEqual([c.id, b.id, a.id])
        expect(listed[1]).toMatchObject({ status: 'failed', error: 'no rows' })
        expect(await tables.listJobs(BOT, tableId)).toEqual(listed)
        expect((await tables.listJobs(BOT, 'otherTable')).map((j) => j.tableId)).toEqual([other])
        await tablesError(tables.listJobs(BOT, 'missingTable'), 'ResourceNotFound', 'TABLE_NOT_FOUND')
      })
    })
  })
}
