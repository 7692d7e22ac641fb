/**
 * How a PostgreSQL search index stores and compares vectors: `pgvector` (a `vector` column, the `<=>` cosine
 * operator, an HNSW index per dimension) or `exact` (a `real[]` column, the cosine computed in SQL over the rows the
 * filters allow). Chosen once per database by `detectVectorSupport` and passed to the migrations and the port.
 *
 * @example
 * ```ts
 * const mode: VectorMode = await detectVectorSupport(sql)
 * ```
 */
export type VectorMode = 'pgvector' | 'exact'

/**
 * The largest dimension pgvector's HNSW index accepts for `vector`; vectors longer than this are compared exactly.
 *
 * @example
 * ```ts
 * if (dimensions <= HNSW_MAX_DIMENSIONS) await ensureHnswIndex(sql, dimensions)
 * ```
 */
export const HNSW_MAX_DIMENSIONS = 2000
