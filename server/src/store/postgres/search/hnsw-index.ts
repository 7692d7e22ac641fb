import type { PgSql } from '../pg-types.js'
import { HNSW_MAX_DIMENSIONS } from './vector-mode.js'

/**
 * Name of the HNSW index of the vectors of one length.
 *
 * @example
 * ```ts
 * hnswIndexName(384) // 'search_passages_hnsw_384'
 * ```
 */
export function hnswIndexName(dimensions: number): string {
  return `search_passages_hnsw_${dimensions}`
}

function checkedDimensions(dimensions: number): number {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions: expected a positive integer, received ${dimensions}`)
  return dimensions
}

/**
 * Creates, when missing, the HNSW index (cosine) of the vectors of one length: a partial expression index on
 * `embedding::vector(n)` for the rows whose `vector_dimensions = n`. pgvector indexes only fixed dimensions, and a
 * deployment meets few (one per embedder), so one index per length replaces a fixed-dimension column. Creators are
 * serialised by a transaction-level advisory lock, so two servers indexing their first vectors together do not race.
 * Lengths over {@link HNSW_MAX_DIMENSIONS} get no index (pgvector refuses them): they are compared exactly.
 *
 * @example
 * ```ts
 * await sql.begin((tx) => ensureHnswIndex(tx, 384))
 * ```
 */
export async function ensureHnswIndex(sql: PgSql, dimensions: number): Promise<boolean> {
  const n = checkedDimensions(dimensions)
  if (n > HNSW_MAX_DIMENSIONS) return false
  const name = hnswIndexName(n)
  const [known] = await sql`SELECT to_regclass(${name}) IS NOT NULL AS present`
  if (known?.['present'] === true) return true
  await sql`SELECT pg_advisory_xact_lock(hashtext('botshelf.search_passages.hnsw'))`
  await sql.unsafe(
    `CREATE INDEX IF NOT EXISTS ${name} ON search_passages USING hnsw ((embedding::vector(${n})) vector_cosine_ops) WHERE vector_dimensions = ${n}`,
  )
  return true
}
