import { randomUUID } from 'node:crypto'
import type { FilterNode } from '../../tables/filter/index.js'
import type { ClaimStaleRowsInput, QueryVector, RowVectorCounts, SetRowVectorsInput, StaleRowsClaim } from '../../tables/row-vectors/index.js'
import { searchableText, TABLE_SEARCH_CANDIDATES } from '../../tables/row-vectors/index.js'
import { float32FromBytes, float32Hex, pgvectorLiteral } from '../search/vector-literals.js'
import { toRecord, type CatalogRow } from './catalog-records.js'
import { decodeValue } from './columns.js'
import { query, quoteIdent, type PgTablesContext } from './context.js'
import { compileFilterSql, type RegexMatches } from './filter-sql.js'
import { SqlParams } from './params.js'
import { columnSqlOf, runtimeOf, type PgTableRuntime } from './runtime.js'

/*
 * Row vectors of a table with searchable columns on PostgreSQL (decision 0860), as on SQLite: a side table
 * `ut_<id>_vec` keyed by row id (a foreign key to the row with ON DELETE CASCADE), the embedder id, the vector in the
 * mode the search index chose (`vector` with pgvector, little-endian float32 `bytea` compared in the process
 * otherwise: decision 0930) and the claim of the job embedding the row. A trigger deletes the side row when a
 * searchable value changes, in the write's transaction. The first embedding job makes the side table.
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

/** Cosine similarity of two vectors of one length (0 when either is all zeros), as sqlite-vec's distance reads it. */
function cosine(a: Float32Array, b: Float32Array): number {
  let product = 0
  let aNorm = 0
  let bNorm = 0
  for (let i = 0; i < a.length; i++) {
    product += a[i]! * b[i]!
    aNorm += a[i]! * a[i]!
    bNorm += b[i]! * b[i]!
  }
  const denominator = Math.sqrt(aNorm * bNorm)
  return denominator === 0 ? 0 : product / denominator
}

const staleFunction = (physicalTable: string) => quoteIdent(`${physicalTable}_vec_stale`)
const updateTrigger = (physicalTable: string) => quoteIdent(`${physicalTable}_vec_au`)

/**
 * Whether the table has its side table of row vectors yet (in the connection's schema).
 *
 * @example
 * ```ts
 * await hasRowVectors(context, 'ut_01abc') // false until the first embedding job ran
 * ```
 */
export async function hasRowVectors(context: PgTablesContext, physicalTable: string): Promise<boolean> {
  const rows = await query(context, `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = current_schema()`, [
    vectorTableName(physicalTable),
  ])
  return rows.length > 0
}

async function createUpdateTrigger(context: PgTablesContext, rt: PgTableRuntime): Promise<void> {
  const changed = rt.searchable.map((c) => `OLD.${quoteIdent(c.physical)}::text IS DISTINCT FROM NEW.${quoteIdent(c.physical)}::text`).join(' OR ')
  await query(
    context,
    `CREATE TRIGGER ${updateTrigger(rt.physical)} AFTER UPDATE ON ${quoteIdent(rt.physical)} FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION ${staleFunction(rt.physical)}()`,
  )
}

/**
 * Creates the side table, its trigger function and trigger when missing. Call in a transaction holding the table's
 * catalog row lock.
 *
 * @example
 * ```ts
 * await ensureRowVectors(tx, runtime)
 * ```
 */
export async function ensureRowVectors(context: PgTablesContext, rt: PgTableRuntime): Promise<void> {
  if (rt.searchable.length === 0 || (await hasRowVectors(context, rt.physical))) return
  const vec = quoteIdent(vectorTableName(rt.physical))
  const embedding = context.vectors === 'pgvector' ? 'vector' : 'bytea'
  await query(
    context,
    `CREATE TABLE ${vec} (row_id integer PRIMARY KEY REFERENCES ${quoteIdent(rt.physical)} (id) ON DELETE CASCADE, embedder_id text COLLATE "C", embedding ${embedding}, claim_token text, claimed_until text COLLATE "C")`,
  )
  await query(
    context,
    `CREATE OR REPLACE FUNCTION ${staleFunction(rt.physical)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM ${vec} WHERE row_id = OLD.id; RETURN NULL; END $$`,
  )
  await createUpdateTrigger(context, rt)
}

/**
 * Drops the trigger that names searchable columns (before a schema change alters them).
 *
 * @example
 * ```ts
 * await dropRowVectorTrigger(tx, 'ut_01abc')
 * ```
 */
export async function dropRowVectorTrigger(context: PgTablesContext, physicalTable: string): Promise<void> {
  await query(context, `DROP TRIGGER IF EXISTS ${updateTrigger(physicalTable)} ON ${quoteIdent(physicalTable)}`)
}

/**
 * Drops the side table, its trigger and its function.
 *
 * @example
 * ```ts
 * await dropRowVectors(tx, 'ut_01abc')
 * ```
 */
export async function dropRowVectors(context: PgTablesContext, physicalTable: string): Promise<void> {
  await query(context, `DROP TABLE IF EXISTS ${quoteIdent(vectorTableName(physicalTable))}`)
  // CASCADE drops the trigger that calls it.
  await query(context, `DROP FUNCTION IF EXISTS ${staleFunction(physicalTable)}() CASCADE`)
}

const searchableSignature = (rt: PgTableRuntime) => rt.searchable.map((c) => `${c.physical}:${c.kind}`).join(',')

/**
 * After a schema change, as on SQLite: no searchable column left drops the vectors, another searchable text makes
 * every row stale, otherwise they stay; the trigger is made again over the new columns.
 *
 * @example
 * ```ts
 * await syncRowVectors(tx, before, after)
 * ```
 */
export async function syncRowVectors(context: PgTablesContext, before: PgTableRuntime, after: PgTableRuntime): Promise<void> {
  if (!(await hasRowVectors(context, after.physical))) return
  if (after.searchable.length === 0) return dropRowVectors(context, after.physical)
  if (searchableSignature(before) !== searchableSignature(after)) await query(context, `DELETE FROM ${quoteIdent(vectorTableName(after.physical))}`)
  await createUpdateTrigger(context, after)
}

/**
 * `stale` and `indexing` of a table for one embedder (decision 0860).
 *
 * @example
 * ```ts
 * await rowVectorCounts(context, runtime, embedder.id) // { stale: 3, indexing: 0 }
 * ```
 */
export async function rowVectorCounts(context: PgTablesContext, rt: PgTableRuntime, embedderId: string): Promise<RowVectorCounts> {
  if (rt.searchable.length === 0) return { stale: 0, indexing: 0 }
  const [total] = await query(context, `SELECT count(*)::int AS n FROM ${quoteIdent(rt.physical)}`)
  const rows = total!['n'] as number
  if (!(await hasRowVectors(context, rt.physical))) return { stale: rows, indexing: 0 }
  const [counts] = await query(
    context,
    `SELECT count(*) FILTER (WHERE embedder_id = $1)::int AS fresh,
            count(*) FILTER (WHERE embedder_id IS DISTINCT FROM $1 AND claimed_until > $2)::int AS indexing
     FROM ${quoteIdent(vectorTableName(rt.physical))}`,
    [embedderId, context.timestamp()],
  )
  return { stale: rows - (counts!['fresh'] as number), indexing: counts!['indexing'] as number }
}

const STALE_AND_FREE = '(v.row_id IS NULL OR (v.embedder_id IS DISTINCT FROM $1 AND (v.claimed_until IS NULL OR v.claimed_until <= $2)))'

/**
 * Claims up to `limit` stale rows with their searchable text. Call in a transaction holding the catalog row lock.
 *
 * @example
 * ```ts
 * const { token, rows } = await claimStaleRows(tx, runtime, { embedderId: embedder.id, limit: 64, leaseMs: 60_000 })
 * ```
 */
export async function claimStaleRows(context: PgTablesContext, rt: PgTableRuntime, input: ClaimStaleRowsInput): Promise<StaleRowsClaim> {
  const token = randomUUID()
  if (rt.searchable.length === 0) return { token, rows: [] }
  await ensureRowVectors(context, rt)
  const vec = quoteIdent(vectorTableName(rt.physical))
  const columns = rt.searchable.map((c) => `t.${quoteIdent(c.physical)}`).join(', ')
  const raw = await query(
    context,
    `SELECT t.id, ${columns} FROM ${quoteIdent(rt.physical)} t LEFT JOIN ${vec} v ON v.row_id = t.id WHERE ${STALE_AND_FREE} ORDER BY t.id LIMIT $3`,
    [input.embedderId, context.timestamp(), input.limit],
  )
  if (raw.length === 0) return { token, rows: [] }
  const until = new Date(context.now().getTime() + input.leaseMs).toISOString()
  const ids = raw.map((row) => row['id'] as number)
  await query(
    context,
    `INSERT INTO ${vec} (row_id, claim_token, claimed_until) SELECT unnest($1::int[]), $2, $3
     ON CONFLICT (row_id) DO UPDATE SET claim_token = excluded.claim_token, claimed_until = excluded.claimed_until`,
    [ids, token, until],
  )
  return { token, rows: raw.map((row) => ({ id: row['id'] as number, text: searchableText(rt.searchable.map((c) => decodeValue(c.kind, row[c.physical]))) })) }
}

/**
 * Writes the vectors of claimed rows, each only while the row is still under this claim.
 *
 * @example
 * ```ts
 * await setRowVectors(tx, runtime, { token, embedderId: embedder.id, vectors: [{ id: 1, vector }] }) // 1
 * ```
 */
export async function setRowVectors(context: PgTablesContext, rt: PgTableRuntime, input: SetRowVectorsInput): Promise<number> {
  if (!(await hasRowVectors(context, rt.physical))) return 0
  const embedding = context.vectors === 'pgvector' ? '$2::vector' : `decode($2, 'hex')`
  let written = 0
  for (const entry of input.vectors) {
    const value = entry.vector === null ? null : context.vectors === 'pgvector' ? pgvectorLiteral(entry.vector) : float32Hex(entry.vector)
    const rows = await query(
      context,
      `UPDATE ${quoteIdent(vectorTableName(rt.physical))} SET embedder_id = $1, embedding = ${embedding}, claim_token = NULL, claimed_until = NULL
       WHERE row_id = $3 AND claim_token = $4 RETURNING row_id`,
      [input.embedderId, value, entry.id, input.token],
    )
    written += rows.length
  }
  return written
}

/**
 * Every table (of the connection's schema) with rows left to embed for the embedder and no job holding any.
 *
 * @example
 * ```ts
 * await tablesWithStaleRows(context, embedder.id) // [{ botId: 'bot_1', tableId: 'table_01…' }]
 * ```
 */
export async function tablesWithStaleRows(context: PgTablesContext, embedderId: string): Promise<Array<{ botId: string; tableId: string }>> {
  const found: Array<{ botId: string; tableId: string }> = []
  const catalog = (await query(context, 'SELECT * FROM tables_catalog ORDER BY id')) as unknown as CatalogRow[]
  for (const row of catalog) {
    const rt = runtimeOf(toRecord(row))
    if (rt.searchable.length === 0) continue
    const table = quoteIdent(rt.physical)
    const stale = (await hasRowVectors(context, rt.physical))
      ? await query(context, `SELECT 1 FROM ${table} t LEFT JOIN ${quoteIdent(vectorTableName(rt.physical))} v ON v.row_id = t.id WHERE ${STALE_AND_FREE} LIMIT 1`, [
          embedderId,
          context.timestamp(),
        ])
      : await query(context, `SELECT 1 FROM ${table} LIMIT 1`)
    if (stale.length > 0) found.push({ botId: row.bot_id, tableId: row.id })
  }
  return found
}

/**
 * The nearest rows to the query vector among those the filter keeps, nearest first, `TABLE_SEARCH_CANDIDATES` at
 * most, with a positive cosine similarity: pgvector's `<=>` in SQL, or the allowed rows' vectors ranked here.
 *
 * @example
 * ```ts
 * await nearestRowIds(context, runtime, { embedderId, values }, plan.filter, matches) // [7, 2, 9]
 * ```
 */
export async function nearestRowIds(context: PgTablesContext, rt: PgTableRuntime, vector: QueryVector, filter: FilterNode, matches: RegexMatches): Promise<number[]> {
  if (!(await hasRowVectors(context, rt.physical))) return []
  const params = new SqlParams()
  const embedder = params.add(vector.embedderId, 'text')
  const where = compileFilterSql(filter, columnSqlOf(rt, 't'), params, matches)
  const from = `FROM ${quoteIdent(rt.physical)} t JOIN ${quoteIdent(vectorTableName(rt.physical))} v ON v.row_id = t.id`
  if (context.vectors === 'pgvector') {
    const dimensions = params.add(vector.values.length, 'int')
    const literal = params.add(pgvectorLiteral(vector.values), 'vector')
    const rows = await query(
      context,
      `SELECT t.id, v.embedding <=> ${literal} AS distance ${from}
       WHERE v.embedder_id = ${embedder} AND v.embedding IS NOT NULL AND vector_dims(v.embedding) = ${dimensions} AND ${where}
       ORDER BY distance, t.id LIMIT ${params.add(TABLE_SEARCH_CANDIDATES, 'int')}`,
      params.values,
    )
    return rows.filter((row) => (row['distance'] as number) < 1).map((row) => row['id'] as number)
  }
  const bytes = params.add(vector.values.byteLength, 'int')
  const rows = await query(context, `SELECT t.id, v.embedding ${from} WHERE v.embedder_id = ${embedder} AND length(v.embedding) = ${bytes} AND ${where}`, params.values)
  return rows
    .map((row) => ({ id: row['id'] as number, similarity: cosine(vector.values, float32FromBytes(row['embedding'] as Uint8Array)) }))
    .filter((row) => row.similarity > 0)
    .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
    .slice(0, TABLE_SEARCH_CANDIDATES)
    .map((row) => row.id)
}
