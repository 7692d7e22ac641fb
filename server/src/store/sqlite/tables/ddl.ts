import type { Sqlite } from '../connect.js'
import { quoteIdent, sqlTypeOf } from './columns.js'
import { scalarKinds } from '../../tables/column-kinds.js'
import type { TableRuntime } from './runtime.js'
import type { TableColumn } from '../../tables/table-columns.js'
import { dropRowVectors } from './row-vectors.js'

/**
 * DDL of the per-table SQLite objects: the rows table `ut_<id>` (`id` autoincrement so ids are never
 * reused, timestamps, one typed column per user column), an index per scalar column and per timestamp,
 * a unique index on the key column, and an FTS5 external-content table kept in sync by triggers.
 */

/**
 * Name of the index of one column.
 *
 * @example
 * ```ts
 * columnIndexName('ut_01abc', 'c3') // 'ut_01abc_c3_idx'
 * ```
 */
export const columnIndexName = (physicalTable: string, physicalColumn: string) => `${physicalTable}_${physicalColumn}_idx`
/**
 * Name of the unique index of the key column.
 *
 * @example
 * ```ts
 * keyIndexName('ut_01abc') // 'ut_01abc_key'
 * ```
 */
export const keyIndexName = (physicalTable: string) => `${physicalTable}_key`

/**
 * Creates the rows table with its indexes, and the search table when some column is searchable.
 *
 * @example
 * ```ts
 * createRowsTable(db, runtime, 'email')
 * ```
 */
export function createRowsTable(db: Sqlite, rt: TableRuntime, keyColumn: string | null): void {
  const table = quoteIdent(rt.physical)
  const columns = rt.columns.map((c) => `${quoteIdent(c.physical)} ${sqlTypeOf(c.kind)}`)
  db.exec(
    `CREATE TABLE ${table} (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL${columns.map((c) => `, ${c}`).join('')})`,
  )
  db.exec(`CREATE INDEX ${quoteIdent(`${rt.physical}_created_idx`)} ON ${table} (created_at)`)
  db.exec(`CREATE INDEX ${quoteIdent(`${rt.physical}_updated_idx`)} ON ${table} (updated_at)`)
  for (const column of rt.columns) createColumnIndex(db, rt.physical, column)
  if (keyColumn) createKeyIndex(db, rt, keyColumn)
  createSearch(db, rt)
}

/**
 * Indexes one scalar column (objects and arrays are not indexed).
 *
 * @example
 * ```ts
 * createColumnIndex(db, 'ut_01abc', column)
 * ```
 */
export function createColumnIndex(db: Sqlite, physicalTable: string, column: TableColumn): void {
  if (!scalarKinds.has(column.kind)) return
  db.exec(
    `CREATE INDEX IF NOT EXISTS ${quoteIdent(columnIndexName(physicalTable, column.physical))} ON ${quoteIdent(physicalTable)} (${quoteIdent(column.physical)})`,
  )
}

/**
 * Creates the unique index of the key column. Fails with a SQLite constraint error on duplicates.
 *
 * @example
 * ```ts
 * createKeyIndex(db, runtime, 'email')
 * ```
 */
export function createKeyIndex(db: Sqlite, rt: TableRuntime, keyColumn: string): void {
  const column = rt.byName.get(keyColumn)!
  db.exec(`CREATE UNIQUE INDEX ${quoteIdent(keyIndexName(rt.physical))} ON ${quoteIdent(rt.physical)} (${quoteIdent(column.physical)})`)
}

/**
 * Drops the unique index of the key column, if any.
 *
 * @example
 * ```ts
 * dropKeyIndex(db, 'ut_01abc')
 * ```
 */
export function dropKeyIndex(db: Sqlite, physicalTable: string): void {
  db.exec(`DROP INDEX IF EXISTS ${quoteIdent(keyIndexName(physicalTable))}`)
}

/**
 * Drops the search table and its triggers (before a column they use changes), if any.
 *
 * @example
 * ```ts
 * dropSearch(db, 'ut_01abc')
 * ```
 */
export function dropSearch(db: Sqlite, physicalTable: string): void {
  for (const suffix of ['ai', 'ad', 'au']) db.exec(`DROP TRIGGER IF EXISTS ${quoteIdent(`${physicalTable}_fts_${suffix}`)}`)
  db.exec(`DROP TABLE IF EXISTS ${quoteIdent(`${physicalTable}_fts`)}`)
}

/**
 * Creates the FTS5 table over the searchable columns, its sync triggers, and fills it from the rows.
 *
 * @example
 * ```ts
 * createSearch(db, runtime)
 * ```
 */
export function createSearch(db: Sqlite, rt: TableRuntime): void {
  if (!rt.fts || rt.searchable.length === 0) return
  const fts = quoteIdent(rt.fts)
  const table = quoteIdent(rt.physical)
  const cols = rt.searchable.map((c) => quoteIdent(c.physical))
  const list = cols.join(', ')
  const newValues = rt.searchable.map((c) => `new.${quoteIdent(c.physical)}`).join(', ')
  const oldValues = rt.searchable.map((c) => `old.${quoteIdent(c.physical)}`).join(', ')
  db.exec(`CREATE VIRTUAL TABLE ${fts} USING fts5(${list}, content=${table.replaceAll('"', "'")}, content_rowid='id')`)
  db.exec(`CREATE TRIGGER ${quoteIdent(`${rt.physical}_fts_ai`)} AFTER INSERT ON ${table} BEGIN
    INSERT INTO ${fts} (rowid, ${list}) VALUES (new.id, ${newValues}); END`)
  db.exec(`CREATE TRIGGER ${quoteIdent(`${rt.physical}_fts_ad`)} AFTER DELETE ON ${table} BEGIN
    INSERT INTO ${fts} (${fts}, rowid, ${list}) VALUES ('delete', old.id, ${oldValues}); END`)
  db.exec(`CREATE TRIGGER ${quoteIdent(`${rt.physical}_fts_au`)} AFTER UPDATE ON ${table} BEGIN
    INSERT INTO ${fts} (${fts}, rowid, ${list}) VALUES ('delete', old.id, ${oldValues});
    INSERT INTO ${fts} (rowid, ${list}) VALUES (new.id, ${newValues}); END`)
  db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`)
}

/**
 * Drops the rows table, its indexes, its search table and its row vectors.
 *
 * @example
 * ```ts
 * dropRowsTable(db, 'ut_01abc')
 * ```
 */
export function dropRowsTable(db: Sqlite, physicalTable: string): void {
  dropRowVectors(db, physicalTable)
  dropSearch(db, physicalTable)
  db.exec(`DROP TABLE IF EXISTS ${quoteIdent(physicalTable)}`)
}
