import { scalarKinds } from '../../tables/column-kinds.js'
import type { TableColumn } from '../../tables/table-columns.js'
import { query, quoteIdent, type PgTablesContext } from './context.js'
import { pgTypeOf } from './columns.js'
import { SEARCH_COLUMN, type PgTableRuntime } from './runtime.js'
import { searchFolding } from './search-folding.js'
import { dropRowVectors } from './row-vectors.js'

/*
 * DDL of the per-table PostgreSQL objects: the rows table `ut_<ulid>` (`id` handed out from the catalog's
 * `last_row_id` so ids are never reused, timestamps, one typed column per user column), a b-tree index per
 * scalar column and per timestamp, a unique index on the key column, and, when some column is searchable, a
 * generated `tsvector` column with its GIN index. PostgreSQL DDL is transactional: a refused change leaves nothing.
 */

/**
 * Name of the index of one column.
 *
 * @example
 * ```ts
 * columnIndexName('ut_01abc', 'c3') // 'ut_01abc_c3_idx'
 * ```
 */
export const columnIndexName = (physicalTable: string, physicalColumn: string): string => `${physicalTable}_${physicalColumn}_idx`

/**
 * Name of the unique index of the key column.
 *
 * @example
 * ```ts
 * keyIndexName('ut_01abc') // 'ut_01abc_key'
 * ```
 */
export const keyIndexName = (physicalTable: string): string => `${physicalTable}_key`

const searchIndexName = (physicalTable: string) => `${physicalTable}_search_idx`

/**
 * Creates the rows table with its indexes, and the search column when some column is searchable.
 *
 * @example
 * ```ts
 * await createRowsTable(tx, runtime, 'email')
 * ```
 */
export async function createRowsTable(context: PgTablesContext, rt: PgTableRuntime, keyColumn: string | null): Promise<void> {
  const table = quoteIdent(rt.physical)
  const columns = rt.columns.map((c) => `, ${quoteIdent(c.physical)} ${pgTypeOf(c.kind)}`).join('')
  await query(context, `CREATE TABLE ${table} (id integer PRIMARY KEY, created_at text COLLATE "C" NOT NULL, updated_at text COLLATE "C" NOT NULL${columns})`)
  await query(context, `CREATE INDEX ${quoteIdent(`${rt.physical}_created_idx`)} ON ${table} (created_at)`)
  await query(context, `CREATE INDEX ${quoteIdent(`${rt.physical}_updated_idx`)} ON ${table} (updated_at)`)
  for (const column of rt.columns) await createColumnIndex(context, rt.physical, column)
  if (keyColumn) await createKeyIndex(context, rt, keyColumn)
  await createSearch(context, rt)
}

/**
 * Indexes one scalar column (objects and arrays are not indexed), `NULLS FIRST`: the order finds ask for (NULL first
 * going up, last going down, as on SQLite), so both directions walk the index instead of sorting.
 *
 * @example
 * ```ts
 * await createColumnIndex(tx, 'ut_01abc', column)
 * ```
 */
export async function createColumnIndex(context: PgTablesContext, physicalTable: string, column: TableColumn): Promise<void> {
  if (!scalarKinds.has(column.kind)) return
  await query(context, `CREATE INDEX IF NOT EXISTS ${quoteIdent(columnIndexName(physicalTable, column.physical))} ON ${quoteIdent(physicalTable)} (${quoteIdent(column.physical)} NULLS FIRST)`)
}

/**
 * Creates the unique index of the key column. Fails with a unique violation (23505) on duplicates.
 *
 * @example
 * ```ts
 * await createKeyIndex(tx, runtime, 'email')
 * ```
 */
export async function createKeyIndex(context: PgTablesContext, rt: PgTableRuntime, keyColumn: string): Promise<void> {
  const column = rt.byName.get(keyColumn)!
  await query(context, `CREATE UNIQUE INDEX ${quoteIdent(keyIndexName(rt.physical))} ON ${quoteIdent(rt.physical)} (${quoteIdent(column.physical)})`)
}

/**
 * Drops the unique index of the key column, if any.
 *
 * @example
 * ```ts
 * await dropKeyIndex(tx, 'ut_01abc')
 * ```
 */
export async function dropKeyIndex(context: PgTablesContext, physicalTable: string): Promise<void> {
  await query(context, `DROP INDEX IF EXISTS ${quoteIdent(keyIndexName(physicalTable))}`)
}

/**
 * Drops the search column and its index (before a column it reads changes), if any.
 *
 * @example
 * ```ts
 * await dropSearch(tx, 'ut_01abc')
 * ```
 */
export async function dropSearch(context: PgTablesContext, physicalTable: string): Promise<void> {
  await query(context, `DROP INDEX IF EXISTS ${quoteIdent(searchIndexName(physicalTable))}`)
  await query(context, `ALTER TABLE ${quoteIdent(physicalTable)} DROP COLUMN IF EXISTS ${SEARCH_COLUMN}`)
}

/**
 * Adds the search column over the searchable columns (a stored generated `tsvector` of their text, diacritics
 * of Latin letters folded, parsed with the `simple` configuration: lowercased words, no stemming, no stop
 * words) and its GIN index, if any column is searchable. PostgreSQL fills it for the rows already there.
 *
 * @example
 * ```ts
 * await createSearch(tx, runtime)
 * ```
 */
export async function createSearch(context: PgTablesContext, rt: PgTableRuntime): Promise<void> {
  if (rt.searchable.length === 0) return
  const text = rt.searchable.map((c) => `coalesce(${quoteIdent(c.physical)}::text, '')`).join(` || ' ' || `)
  // Diacritics folded as FTS5's unicode61 folds them (the table holds no quote: it is a safe literal).
  const folded = `translate(${text}, '${searchFolding.from}', '${searchFolding.to}')`
  const table = quoteIdent(rt.physical)
  await query(context, `ALTER TABLE ${table} ADD COLUMN ${SEARCH_COLUMN} tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, ${folded})) STORED`)
  await query(context, `CREATE INDEX ${quoteIdent(searchIndexName(rt.physical))} ON ${table} USING gin (${SEARCH_COLUMN})`)
}

/**
 * Drops the rows table with its indexes, search column and row vectors.
 *
 * @example
 * ```ts
 * await dropRowsTable(tx, 'ut_01abc')
 * ```
 */
export async function dropRowsTable(context: PgTablesContext, physicalTable: string): Promise<void> {
  await dropRowVectors(context, physicalTable)
  await query(context, `DROP TABLE IF EXISTS ${quoteIdent(physicalTable)}`)
}
