import { describe, expect, it } from 'vitest'
import { portMethods as sharedPortMethods } from '../../port-methods.js'
import type { TablesPort } from '../../tables/tables-port.js'
import { runMigrations } from '../migrations.js'
import { openDatabase } from '../connect.js'
import { tablesMigrations } from './migrations.js'
import { SqliteTablesStore } from './tables-port.js'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false
type AllTrue<T> = T[keyof T] extends true ? true : false
type StoreMethod<K extends keyof TablesPort> = SqliteTablesStore[K] extends (...args: never[]) => unknown ? SqliteTablesStore[K] : never

// The store's public surface is the port's, synchronous: same names, same parameters, results without the promise.
const onlyPortMethods: Equal<Exclude<keyof SqliteTablesStore, keyof TablesPort>, never> = true
const sameParameters: AllTrue<{ [K in keyof TablesPort]: Equal<Parameters<StoreMethod<K>>, Parameters<TablesPort[K]>> }> = true
const sameResults: AllTrue<{ [K in keyof TablesPort]: Equal<ReturnType<StoreMethod<K>>, Awaited<ReturnType<TablesPort[K]>>> }> = true

/** Every port method once: the backends' own list (it fails to compile when the port gains or loses one). */
const portMethods: ReadonlyArray<keyof TablesPort> = sharedPortMethods.tables

/** The generic wrapper the async backend uses: the sync method of the same name, same arguments, as a promise. */
function asPort(store: SqliteTablesStore): TablesPort {
  const call = store as unknown as Record<string, (...args: unknown[]) => unknown>
  return Object.fromEntries(portMethods.map((name) => [name, async (...args: unknown[]) => call[name]!(...args)])) as unknown as TablesPort
}

describe('SqliteTablesStore as TablesPort', () => {
  it('has exactly the port’s methods, with the same parameters and results', () => {
    expect([onlyPortMethods, sameParameters, sameResults]).toEqual([true, true, true])
    const own = Object.getOwnPropertyNames(SqliteTablesStore.prototype).filter((name) => name !== 'constructor')
    expect(own.sort()).toEqual([...portMethods].sort())
  })

  it('works behind a generic async wrapper', async () => {
    const db = openDatabase(':memory:')
    runMigrations(db, tablesMigrations)
    const port = asPort(new SqliteTablesStore(db))
    await port.createTable('bot_1', { name: 'ordersTable', schema: { total: 0 } })
    await port.createRows('bot_1', 'ordersTable', [{ total: 12 }, { total: 3 }])
    const { rows } = await port.findRows('bot_1', 'ordersTable', { filter: { total: { $gt: 10 } } })
    expect(rows.map((r) => r['total'])).toEqual([12])
    await expect(port.getRow('bot_1', 'ordersTable', 99)).rejects.toMatchObject({ type: 'ResourceNotFound', code: 'ROW_NOT_FOUND' })
    expect((await port.listTables('bot_1', { pageSize: 10 })).tables.map((t) => t.name)).toEqual(['ordersTable'])
  })
})
