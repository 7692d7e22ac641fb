import { randomUUID } from 'node:crypto'
import type { ClaimStaleRowsInput, QueryVector, RowVectorCounts, SetRowVectorsInput, StaleRowsClaim } from '../../tables/row-vectors/index.js'
import { searchableText, TABLE_SEARCH_CANDIDATES } from '../../tables/row-vectors/index.js'
import type { CompiledSql } from './filter-sql.js'
import type { Sqlite } from '../connect.js'
import { decodeValue, quoteIdent } from './columns.js'
import { toRecord, runtimeOf, type CatalogRow } from './catalog-records.js'
import type { TablesContext } from './context.js'
import type { TableRuntime } from './runtime.js'

/*
 * Row vectors of a table with searchable columns (decision 0860): a side table `ut_<id>_vec` keyed by row id with
 * the embedder id, the float32 vector as a BLOB (compared by sqlite-vec's `vec_distance_cosine`, as file search
 * does) and the claim of the job embedding the row. A row with no side row of the current embedder is stale.
 * Triggers on the rows table delete the side row when the row is deleted or when a searchable value changes, in the
 * write's own transaction. The side table is made by the first embedding job (`ensureRowVectors`).
 */

/**
 * Name of the side table holding a table's row vectors.
 *
 * @example
 * ```ts
 * vectorTableName('ut_01abc') // 'ut_01abc_vec'
 * ```
 */
export const vectorTableName = (physicalTable: string): string => `${physicalTable}_vec`

const updateTrigger = (physicalTable: string) => quoteIdent(`${physicalTable}_vec_au`)
const deleteTrigger = (physicalTable: string) => quoteIdent(`${physicalTable}_vec_ad`)

/**
 * Whether the table has its side table of row vectors yet.
 *
 * @example
 * ```ts
 * hasRowVectors(db, 'ut_01abc') // false until the first embedding job ran
 * ```
 */
export function hasRowVectors(db: Sqlite, physicalTable: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(vectorTableName(physicalTable)) !== undefined
}

/**
 * Creates, when missing, the index of a side table by embedder and claim: what tells without reading a row whether
 * any vector is stale (`tablesWithStaleRows`), and the smallest index SQLite's count opcode walks to count vectors.
 *
 * @example
 * ```ts
 * ensureStaleIndex(db, 'ut_01abc') // CREATE INDEX IF NOT EXISTS "ut_01abc_vec_stale_idx" …
 * ```
 */
export function ensureStaleIndex(db: Sqlite, physicalTable: string): void {
  db.exec(`CREATE INDEX IF NOT EXISTS ${quoteIdent(`${vectorTableName(physicalTable)}_stale_idx`)} ON ${quoteIdent(vectorTableName(physicalTable))} (embedder_id, claimed_until)`)
}

/** (Re)creates the trigger that drops a row's vector when one of its searchable values changes. */
function createUpdateTrigger(db: Sqlite, rt: TableRuntime): void {
  const changed = rt.searchable.map((c) => `old.${quoteIdent(c.physical)} IS NOT new.${quoteIdent(c.physical)}`).join(' OR ')
  db.exec(`CREATE TRIGGER IF NOT EXISTS ${updateTrigger(rt.physical)} AFTER UPDATE ON ${quoteIdent(rt.physical)} WHEN ${changed} BEGIN
    DELETE FROM ${quoteIdent(vectorTableName(rt.physical))} WHERE row_id = old.id; END`)
}

/**
 * Creates the side table of row vectors and its triggers when missing. Call inside the write transaction of a table
 * with searchable columns.
 *
 * @example
 * ```ts
 * ensureRowVectors(db, runtime)
 * ```
 */
export function ensureRowVectors(db: Sqlite, rt: TableRuntime): void {
  if (rt.searchable.length === 0) return
  const vec = quoteIdent(vectorTableName(rt.physical))
  db.exec(`CREATE TABLE IF NOT EXISTS ${vec} (row_id INTEGER PRIMARY KEY, embedder_id TEXT, embedding BLOB, claim_token TEXT, claimed_until TEXT)`)
  ensureStaleIndex(db, rt.physical)
  db.exec(`CREATE TRIGGER IF NOT EXISTS ${deleteTrigger(rt.physical)} AFTER DELETE ON ${quoteIdent(rt.physical)} BEGIN
    DELETE FROM ${vec} WHERE row_id = old.id; END`)
  createUpdateTrigger(db, rt)
}

/**
 * Drops the trigger that names searchable columns (before a schema change alters them).
 *
 * @example
 * ```ts
 * dropRowVectorTrigger(db, 'ut_01abc')
 * ```
 */
export function dropRowVectorTrigger(db: Sqlite, physicalTable: string): void {
  db.exec(`DROP TRIGGER IF EXISTS ${updateTrigger(physicalTable)}`)
}

/**
 * Drops the side table and its triggers.
 *
 * @example
 * ```ts
 * dropRowVectors(db, 'ut_01abc')
 * ```
 */
export function dropRowVectors(db: Sqlite, physicalTable: string): void {
  dropRowVectorTrigger(db, physicalTable)
  db.exec(`DROP TRIGGER IF EXISTS ${deleteTrigger(physicalTable)}`)
  db.exec(`DROP TABLE IF EXISTS ${quoteIdent(vectorTableName(physicalTable))}`)
}

/** The searchable columns as the text of the vectors: physical names in order. */
const searchableSignature = (rt: TableRuntime) => rt.searchable.map((c) => `${c.physical}:${c.kind}`).join(',')

/**
 * After a schema change: no searchable column left drops the vectors; another searchable text (a column added,
 * removed, converted or marked searchable) makes every row stale; otherwise the vectors stay. The update trigger is
 * made again over the new columns. Call after `applySchemaChange`'s DDL, in its transaction.
 *
 * @example
 * ```ts
 * syncRowVectors(db, before, after)
 * ```
 */
export function syncRowVectors(db: Sqlite, before: TableRuntime, after: TableRuntime): void {
  if (!hasRowVectors(db, after.physical)) return
  if (after.searchable.length === 0) return dropRowVectors(db, after.physical)
  if (searchableSignature(before) !== searchableSignature(after)) db.exec(`DELETE FROM ${quoteIdent(vectorTableName(after.physical))}`)
  createUpdateTrigger(db, after)
}

/**
 * `stale` and `indexing` of a table for one embedder (decision 0860).
 *
 * @example
 * ```ts
 * rowVectorCounts(context, runtime, embedder.id) // { stale: 3, indexing: 0 }
 * ```
 */
export function rowVectorCounts(context: TablesContext, rt: TableRuntime, embedderId: string): RowVectorCounts {
  if (rt.searchable.length === 0) return { stale: 0, indexing: 0 }
  const rows = context.prepare(`SELECT COUNT(*) FROM ${quoteIdent(rt.physical)}`).pluck().get() as number
  if (!hasRowVectors(context.db, rt.physical)) return { stale: rows, indexing: 0 }
  const counts = context.db
    .prepare(
      `SELECT COALESCE(SUM(embedder_id IS ?), 0) AS fresh, COALESCE(SUM(embedder_id IS NOT ? AND claimed_until > ?), 0) AS indexing FROM ${quoteIdent(vectorTableName(rt.physical))}`,
    )
    .get(embedderId, embedderId, context.timestamp()) as { fresh: number; indexing: number }
  return { stale: rows - counts.fresh, indexing: counts.indexing }
}

/** Rows with no vector of the embedder and no unexpired claim: `LEFT JOIN` on the side table `v`. */
const STALE_AND_FREE = '(v.row_id IS NULL OR (v.embedder_id IS NOT ? AND (v.claimed_until IS NULL OR v.claimed_until <= ?)))'

/**
 * Claims up to `limit` stale rows with their searchable text, in one transaction.
 *
 * @example
 * ```ts
 * const { token, rows } = claimStaleRows(context, runtime, { embedderId: embedder.id, limit: 64, leaseMs: 60_000 })
 * ```
 */
export function claimStaleRows(context: TablesContext, rt: TableRuntime, input: ClaimStaleRowsInput): StaleRowsClaim {
  const token = randomUUID()
  if (rt.searchable.length === 0) return { token, rows: [] }
  return context.db.transaction(() => {
    ensureRowVectors(context.db, rt)
    const vec = quoteIdent(vectorTableName(rt.physical))
    const now = context.timestamp()
    const columns = rt.searchable.map((c) => `t.${quoteIdent(c.physical)}`).join(', ')
    const raw = context.db
      .prepare(`SELECT t.id, ${columns} FROM ${quoteIdent(rt.physical)} t LEFT JOIN ${vec} v ON v.row_id = t.id WHERE ${STALE_AND_FREE} ORDER BY t.id LIMIT ?`)
      .all(input.embedderId, now, input.limit) as Array<Record<string, unknown>>
    const until = new Date(context.now().getTime() + input.leaseMs).toISOString()
    const claim = context.db.prepare(
      `INSERT INTO ${vec} (row_id, claim_token, claimed_until) VALUES (?, ?, ?) ON CONFLICT (row_id) DO UPDATE SET claim_token = excluded.claim_token, claimed_until = excluded.claimed_until`,
    )
    const rows = raw.map((row) => {
      claim.run(row['id'], token, until)
      return { id: row['id'] as number, text: searchableText(rt.searchable.map((c) => decodeValue(c.kind, row[c.physical]))) }
    })
    return { token, rows }
  })()
}

/**
 * Little-endian float32 bytes of a vector, the form sqlite-vec reads.
 *
 * @example
 * ```ts
 * vectorBlob(new Float32Array([1, 0])) // <Buffer 00 00 80 3f 00 00 00 00>
 * ```
 */
export function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

/**
 * Writes the vectors of claimed rows, each only while the row is still under this claim.
 *
 * @example
 * ```ts
 * setRowVectors(context, runtime, { token, embedderId: embedder.id, vectors: [{ id: 1, vector }] }) // 1
 * ```
 */
export function setRowVectors(context: TablesContext, rt: TableRuntime, input: SetRowVectorsInput): number {
  if (!hasRowVectors(context.db, rt.physical)) return 0
  const update = context.db.prepare(
    `UPDATE ${quoteIdent(vectorTableName(rt.physical))} SET embedder_id = ?, embedding = ?, claim_token = NULL, claimed_until = NULL WHERE row_id = ? AND claim_token = ?`,
  )
  return context.db.transaction(() => {
    let written = 0
    for (const entry of input.vectors) written += update.run(input.embedderId, entry.vector ? vectorBlob(entry.vector) : null, entry.id, input.token).changes
    return written
  })()
}

/**
 * Every table with rows left to embed for the embedder and no job holding any of them.
 *
 * @example
 * ```ts
 * tablesWithStaleRows(context, embedder.id) // [{ botId: 'bot_1', tableId: 'table_01…' }]
 * ```
 */
export function tablesWithStaleRows(context: TablesContext, embedderId: string): Array<{ botId: string; tableId: string }> {
  const found: Array<{ botId: string; tableId: string }> = []
  const now = context.timestamp()
  for (const row of context.db.prepare('SELECT * FROM tables_catalog ORDER BY id').all() as CatalogRow[]) {
    const rt = runtimeOf(toRecord(row))
    if (rt.searchable.length === 0) continue
    if (hasStaleRow(context, rt.physical, embedderId, now)) found.push({ botId: row.bot_id, tableId: row.id })
  }
  return found
}

/**
 * Whether a searchable table has a row to embed that no claim holds, reading no row (decision 1479): a row with no
 * vector at all, when the table has more rows than its side table (each side-table row is a row's, its triggers
 * drop it with the row; both counted by SQLite's count opcode), or a side-table row of another embedder, or of none
 * yet, whose claim is free (seeks on the side table's index by embedder and claim). A fully embedded table costs
 * two counts and three empty seeks, where the join it replaces read every row.
 */
function hasStaleRow(context: TablesContext, physical: string, embedderId: string, now: string): boolean {
  const table = quoteIdent(physical)
  if (!hasRowVectors(context.db, physical)) return context.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined
  const vec = quoteIdent(vectorTableName(physical))
  const rows = context.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number
  const vectors = context.prepare(`SELECT COUNT(*) FROM ${vec}`).pluck().get() as number
  if (rows > vectors) return true
  // `IS NOT ?` as three ranges, each a seek on (embedder_id, claimed_until).
  const free = '(claimed_until IS NULL OR claimed_until <= ?)'
  return (
    context
      .prepare(`SELECT 1 FROM ${vec} WHERE (embedder_id IS NULL AND ${free}) OR (embedder_id < ? AND ${free}) OR (embedder_id > ? AND ${free}) LIMIT 1`)
      .get(now, embedderId, now, embedderId, now) !== undefined
  )
}

/**
 * The nearest rows to the query vector among those the filter keeps, nearest first, `TABLE_SEARCH_CANDIDATES` at
 * most; a row with no positive cosine similarity is no candidate (as in file search).
 *
 * @example
 * ```ts
 * nearestRowIds(context, runtime, { embedderId, values }, filterWhere(runtime, filter, 't')) // [7, 2, 9]
 * ```
 */
export function nearestRowIds(context: TablesContext, rt: TableRuntime, vector: QueryVector, where: CompiledSql): number[] {
  if (!hasRowVectors(context.db, rt.physical)) return []
  const rows = context.db
    .prepare(
      `SELECT t.id AS id, vec_distance_cosine(v.embedding, ?) AS distance FROM ${quoteIdent(rt.physical)} t
       JOIN ${quoteIdent(vectorTableName(rt.physical))} v ON v.row_id = t.id
       WHERE v.embedder_id = ? AND length(v.embedding) = ? AND ${where.sql}
       ORDER BY distance, t.id LIMIT ?`,
    )
    .all(vectorBlob(vector.values), vector.embedderId, vector.values.byteLength, ...where.params, TABLE_SEARCH_CANDIDATES) as Array<{ id: number; distance: number }>
  return rows.filter((row) => row.distance < 1).map((row) => row.id)
}
