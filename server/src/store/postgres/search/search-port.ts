import { randomUUID } from 'node:crypto'
import { passageRowToRecord, type PassageRow } from '../../search/passage-row.js'
import type postgres from 'postgres'
import { evidenceText, fuseByReciprocalRank, keepLexicalTop, rankByRelevance, RESCORED_CANDIDATES, RRF_K } from '../../../search/ranking/index.js'
import { dot } from '../../../search/embedding/vector-math.js'
import type { Clock } from '../../clock.js'
import type { SearchIndexPort } from '../../search/search-port.js'
import type {
  PassageListQuery,
  PassageRecord,
  ReplacePassagesInput,
  SearchHit,
  SearchQuery,
  SearchUsage,
  StaleFile,
  PassageVectorsInput,
} from '../../search/types.js'
import type { PgSql } from '../pg-types.js'
import { tagConditions } from '../tag-sql.js'
import { ensureHnswIndex } from './hnsw-index.js'
import { FOLD_FROM, FOLD_TO } from './text-folding.js'
import { float32FromBytes, float32Hex, pgvectorLiteral } from './vector-literals.js'
import { HNSW_MAX_DIMENSIONS, type VectorMode } from './vector-mode.js'

/** Candidates each ranking (lexical, vector) contributes to the fusion, as on SQLite. */
const CANDIDATES = 100
/** Rows per INSERT statement when replacing passages (11 arrays of this length per statement). */
const INSERT_BATCH = 1000
/** HNSW candidate list while searching: above CANDIDATES so the filtered top 100 stays near-exact. */
const HNSW_EF_SEARCH = 200

type Fragment = postgres.PendingQuery<postgres.Row[]>



/** PostgreSQL text cannot hold NUL: it is dropped from what is indexed and searched (it is never a word). */
function withoutNul(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', '') : text
}

const PASSAGE_COLUMNS = 'id, file_id, bot_id, position, content, passage_type, subtype, page_number, breadcrumb_json'

/**
 * The search index on PostgreSQL, bound to one connection: the pool, or a transaction of `backend.transaction`
 * (every call then joins it). Passages live in `search_passages` (cascade-deleted with their file); the lexical
 * ranking is `ts_rank_cd` over a GIN-indexed `tsvector`, the vector ranking is pgvector's cosine distance (HNSW
 * per dimension) or an exact cosine in SQL. Both rankings join `files` and apply the bot, the caller's scope, the
 * tag filter and expiry inside the query, before their limit; the lists are fused by reciprocal rank (`RRF_K`) and
 * the best lexical match is kept in the top three, exactly as on SQLite.
 *
 * @example
 * ```ts
 * const search = createPostgresSearchPort(sql, { now: () => new Date(), vectors: await detectVectorSupport(sql) })
 * await search.search({ botId, scope: { kind: 'all' }, text: 'refund policy', limit: 10 })
 * ```
 */
export function createPostgresSearchPort(sql: PgSql, deps: { now: Clock; vectors: VectorMode }): SearchIndexPort {
  return new PostgresSearchPort(sql, deps.now, deps.vectors)
}

/** Runs `fn` in the open transaction, or in a new one on the pool. */
async function atomically<T>(sql: PgSql, fn: (tx: PgSql) => Promise<T>): Promise<T> {
  if ('savepoint' in sql) return fn(sql)
  return (await sql.begin((tx) => fn(tx))) as T
}

class PostgresSearchPort implements SearchIndexPort {
  constructor(
    private readonly sql: PgSql,
    private readonly now: Clock,
    private readonly vectors: VectorMode,
  ) {}

  async replacePassages(input: ReplacePassagesInput): Promise<void> {
    const dimensions = new Set(input.passages.flatMap((passage) => (passage.vector ? [passage.vector.length] : [])))
    await atomically(this.sql, async (tx) => {
      if (this.vectors === 'pgvector') for (const n of dimensions) await ensureHnswIndex(tx, n)
      await tx`DELETE FROM search_passages WHERE file_id = ${input.fileId}`
      for (let start = 0; start < input.passages.length; start += INSERT_BATCH) {
        await this.insertBatch(tx, input, start, input.passages.slice(start, start + INSERT_BATCH))
      }
    })
  }

  async staleFiles(query: { embedderId: string; afterFileId?: string; limit: number }): Promise<StaleFile[]> {
    const rows = await this.sql`
      SELECT file_id, bot_id, count(*)::int AS passages FROM search_passages
      WHERE embedder_id IS DISTINCT FROM ${query.embedderId} AND file_id > ${query.afterFileId ?? ''}
      GROUP BY file_id, bot_id ORDER BY file_id COLLATE "C" LIMIT ${query.limit}`
    return rows.map((row) => ({ fileId: String(row['file_id']), botId: String(row['bot_id']), passages: Number(row['passages']) }))
  }

  async countStale(embedderId: string): Promise<{ files: number; passages: number }> {
    const [row] = await this.sql`
      SELECT count(DISTINCT file_id)::int AS files, count(*)::int AS passages FROM search_passages
      WHERE embedder_id IS DISTINCT FROM ${embedderId}`
    return { files: Number(row?.['files'] ?? 0), passages: Number(row?.['passages'] ?? 0) }
  }

  async setPassageVectors(input: PassageVectorsInput): Promise<number> {
    const literal = this.vectors === 'pgvector' ? pgvectorLiteral : float32Hex
    const dimensions = new Set(input.vectors.map((entry) => entry.vector.length))
    return atomically(this.sql, async (tx) => {
      if (this.vectors === 'pgvector') for (const n of dimensions) await ensureHnswIndex(tx, n)
      const embedding = this.vectors === 'pgvector' ? tx`r.e::vector` : tx`decode(r.e, 'hex')`
      const result = await tx`
        UPDATE search_passages p SET embedder_id = ${input.embedderId}, vector_dimensions = r.d, embedding = ${embedding}
        FROM unnest(${input.vectors.map((entry) => entry.passageId)}::text[], ${input.vectors.map((entry) => entry.vector.length)}::int[],
          ${input.vectors.map((entry) => literal(entry.vector))}::text[]) AS r (i, d, e)
        WHERE p.id = r.i AND p.file_id = ${input.fileId}`
      return result.count
    })
  }

  private async insertBatch(tx: PgSql, input: ReplacePassagesInput, start: number, batch: ReplacePassagesInput['passages']): Promise<void> {
    const literal = this.vectors === 'pgvector' ? pgvectorLiteral : float32Hex
    const embedding = this.vectors === 'pgvector' ? tx`e::vector` : tx`decode(e, 'hex')`
    const columns = {
      id: batch.map(() => randomUUID()),
      position: batch.map((_, index) => start + index),
      content: batch.map((passage) => withoutNul(passage.content)),
      type: batch.map((passage) => passage.type ?? 'chunk'),
      subtype: batch.map((passage) => passage.subtype),
      page: batch.map((passage) => passage.pageNumber ?? null),
      breadcrumb: batch.map((passage) => JSON.stringify(passage.breadcrumb.map(withoutNul))),
      embedder: batch.map((passage) => (passage.vector ? input.embedderId : null)),
      dimensions: batch.map((passage) => (passage.vector ? passage.vector.length : null)),
      embedding: batch.map((passage) => (passage.vector ? literal(passage.vector) : null)),
    }
    await tx`
      INSERT INTO search_passages (id, file_id, bot_id, position, content, passage_type, subtype, page_number, breadcrumb_json, embedder_id, vector_dimensions, embedding)
      SELECT i, ${input.fileId}, ${input.botId}, pos, c, ty, st, pg, bc, em, d, ${embedding}
      FROM unnest(${columns.id}::text[], ${columns.position}::int[], ${columns.content}::text[], ${columns.type}::text[], ${columns.subtype}::text[],
        ${columns.page}::int[], ${columns.breadcrumb}::text[], ${columns.embedder}::text[], ${columns.dimensions}::int[],
        ${columns.embedding}::text[]) AS r (i, pos, c, ty, st, pg, bc, em, d, e)`
  }

  async deleteFilePassages(fileId: string): Promise<number> {
    const result = await this.sql`DELETE FROM search_passages WHERE file_id = ${fileId}`
    return result.count
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const lexical = await this.lexicalRanking(query)
    const vector = query.vector ? await this.vectorRanking(query, query.vector) : []
    const fused = keepLexicalTop(fuseByReciprocalRank(vector.length > 0 ? [lexical, vector] : [lexical], { k: RRF_K }), lexical[0]).slice(0, RESCORED_CANDIDATES)
    if (fused.length === 0) return []
    const rows = (await this.sql`
      SELECT seq::text AS seq, ${this.sql.unsafe(PASSAGE_COLUMNS)}, ${this.candidateCosine(query.vector)} AS cosine, ${this.comparableBytes(query.vector)} AS embedding
      FROM search_passages
      WHERE seq = ANY(${fused.map((entry) => entry.id)}::bigint[])`) as unknown as Array<PassageRow & { seq: string; cosine: number | null; embedding?: Uint8Array | null }>
    const bySeq = new Map(rows.map((row) => [row.seq, row]))
    const candidates = fused.flatMap((entry) => {
      const row = bySeq.get(entry.id)
      if (!row) return []
      const cosine = row.cosine !== null ? Number(row.cosine) : row.embedding && query.vector ? dot(query.vector.values, float32FromBytes(row.embedding)) : null
      const passage = passageRowToRecord(row)
      return [{ item: passage, content: evidenceText(passage), cosine, lexicalTop: entry.id === lexical[0] }]
    })
    return rankByRelevance(query.text, candidates, { floor: query.minScore ?? 0, limit: query.limit }).map((hit) => ({ passage: hit.item, score: hit.score }))
  }

  /**
   * The cosine of a candidate with the query, for the relevance score: computed by pgvector in the statement; with
   * float32 bytes, `null` here and computed in the process from the `embedding` read beside it (only a vector of the
   * query's embedder and length is compared).
   */
  private candidateCosine(vector: SearchQuery['vector']): Fragment {
    if (!vector || this.vectors !== 'pgvector') return this.sql`NULL::float8`
    const n = vector.values.length
    return this.sql`CASE WHEN embedder_id = ${vector.embedderId} AND vector_dimensions = ${n}
      THEN (1 - (embedding::vector(${this.sql.unsafe(String(n))}) <=> ${pgvectorLiteral(vector.values)}::vector(${this.sql.unsafe(String(n))})))::float8 END`
  }

  async listPassages(query: PassageListQuery): Promise<{ items: PassageRecord[]; nextPosition?: number }> {
    const rows = (await this.sql`
      SELECT ${this.sql.unsafe(PASSAGE_COLUMNS)} FROM search_passages
      WHERE file_id = ${query.fileId} AND position > ${query.afterPosition ?? -1}
      ORDER BY position LIMIT ${query.pageSize + 1}`) as unknown as PassageRow[]
    const items = rows.slice(0, query.pageSize).map(passageRowToRecord)
    return rows.length > query.pageSize ? { items, nextPosition: items[items.length - 1]!.position } : { items }
  }

  async passagesAround(fileId: string, from: number, to: number): Promise<PassageRecord[]> {
    const rows = (await this.sql`
      SELECT ${this.sql.unsafe(PASSAGE_COLUMNS)} FROM search_passages
      WHERE file_id = ${fileId} AND position BETWEEN ${from} AND ${to} ORDER BY position`) as unknown as PassageRow[]
    return rows.map(passageRowToRecord)
  }

  async usage(botIds: ReadonlyArray<string>): Promise<SearchUsage> {
    if (botIds.length === 0) return { passages: 0, passageBytes: 0, vectorBytes: 0 }
    const [row] = await this.sql`
      SELECT count(*)::int8::text AS passages, coalesce(sum(octet_length(content)), 0)::int8::text AS passage_bytes,
        coalesce(sum(vector_dimensions::int8 * 4), 0)::int8::text AS vector_bytes
      FROM search_passages WHERE bot_id = ANY(${[...botIds]}::text[])`
    return { passages: Number(row!['passages']), passageBytes: Number(row!['passage_bytes']), vectorBytes: Number(row!['vector_bytes']) }
  }

  /** Bot, caller scope, tag filter and expiry, over `p` (the passage) joined to `f` (its file). */
  private filter(query: SearchQuery): Fragment {
    const sql = this.sql
    const scope = query.scope.kind === 'all' ? sql`true` : sql`(f.owner_scope = ${query.scope.integrationName} OR f.policy_integrations)`
    const tags = query.tags && query.tags.length > 0 ? tagConditions(sql, query.tags, 'f', 'file_tags') : sql`true`
    return sql`p.bot_id = ${query.botId} AND f.bot_id = ${query.botId}
      AND (f.expires_at IS NULL OR f.expires_at > ${this.now().toISOString()}) AND ${scope} AND ${tags}`
  }

  /**
   * The query's words as the index parsed the passages (folded, stemmed, stop words dropped), any of them matching,
   * ranked by cover density. Lexemes are quoted into a `simple` tsquery, so no operator of the user's text leaks in;
   * a query of stop words alone has no lexeme and matches nothing.
   */
  private async lexicalRanking(query: SearchQuery): Promise<string[]> {
    const rows = await this.sql`
      WITH q AS (
        SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) AS query
        FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, translate(${withoutNul(query.text)}::text, ${FOLD_FROM}::text, ${FOLD_TO}::text)))) AS lexeme
      )
      SELECT p.seq::text AS seq FROM q, search_passages p JOIN files f ON f.id = p.file_id
      WHERE q.query IS NOT NULL AND p.content_tsv @@ q.query AND ${this.filter(query)}
      ORDER BY ts_rank_cd(p.content_tsv, q.query) DESC, p.seq LIMIT ${CANDIDATES}`
    return rows.map((row) => String(row['seq']))
  }

  /** Nearest vectors of the same embedder and length first; no positive cosine similarity: no candidate. */
  private async vectorRanking(query: SearchQuery, vector: { embedderId: string; values: Float32Array }): Promise<string[]> {
    const n = vector.values.length
    const rows =
      this.vectors === 'pgvector'
        ? await atomically(this.sql, async (tx) => {
            // Filters are applied inside the index scan: a larger candidate list, and pgvector >= 0.8 keeps scanning
            // until the limit is filled (an unknown setting on older versions is a harmless placeholder). The file's
            // conditions are a per-row subquery, not a join: joined, the planner sorts every allowed row instead of
            // walking the HNSW index in distance order (checked in postgres-search-recall.test.ts).
            await tx`SELECT set_config('hnsw.ef_search', ${String(HNSW_EF_SEARCH)}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`
            const distance =
              n <= HNSW_MAX_DIMENSIONS
                ? tx`p.embedding::vector(${tx.unsafe(String(n))}) <=> ${pgvectorLiteral(vector.values)}::vector(${tx.unsafe(String(n))})`
                : tx`p.embedding <=> ${pgvectorLiteral(vector.values)}::vector`
            return tx`
              SELECT p.seq::text AS seq, (${distance})::float8 AS distance FROM search_passages p JOIN files f ON f.id = p.file_id
              WHERE p.embedder_id = ${vector.embedderId} AND p.vector_dimensions = ${n} AND p.bot_id = ${query.botId}
                AND coalesce((SELECT ${this.filterOn(tx, query)} FROM files f WHERE f.id = p.file_id), false)
              ORDER BY ${distance}, p.seq LIMIT ${CANDIDATES}`
          })
        : await this.exactNearest(query, vector)
    return rows.filter((row) => Number(row['distance']) < 1).map((row) => String(row['seq']))
  }

  /**
   * Exact cosine over the rows the filters allow, computed in the process: the statement reads only the allowed
   * vectors of the same embedder and length as bytes, and one pass of dot products ranks them (measured about ten
   * times faster than the same cosine as SQL over unnested arrays: bench/README.md).
   */
  private async exactNearest(query: SearchQuery, vector: { embedderId: string; values: Float32Array }): Promise<Array<{ seq: string; distance: number }>> {
    const rows = await this.sql`
      SELECT p.seq::text AS seq, p.embedding FROM search_passages p JOIN files f ON f.id = p.file_id
      WHERE p.embedder_id = ${vector.embedderId} AND p.vector_dimensions = ${vector.values.length} AND ${this.filter(query)}`
    const q = vector.values
    let qNorm = 0
    for (let i = 0; i < q.length; i++) qNorm += q[i]! * q[i]!
    const scored = rows.map((row) => {
      const v = float32FromBytes(row['embedding'] as Uint8Array)
      let dot = 0
      let vNorm = 0
      for (let i = 0; i < v.length; i++) {
        dot += v[i]! * q[i]!
        vNorm += v[i]! * v[i]!
      }
      const denominator = Math.sqrt(qNorm * vNorm)
      return { seq: String(row['seq']), distance: denominator === 0 ? 1 : 1 - dot / denominator }
    })
    return scored.sort((a, b) => a.distance - b.distance || Number(BigInt(a.seq) - BigInt(b.seq))).slice(0, CANDIDATES)
  }

  /** With float32 bytes, a candidate's vector when it is comparable with the query's (same embedder and length). */
  private comparableBytes(vector: SearchQuery['vector']): Fragment {
    if (!vector || this.vectors === 'pgvector') return this.sql`NULL::bytea`
    return this.sql`CASE WHEN embedder_id = ${vector.embedderId} AND vector_dimensions = ${vector.values.length} THEN embedding END`
  }

  private filterOn(tx: PgSql, query: SearchQuery): Fragment {
    return new PostgresSearchPort(tx, this.now, this.vectors).filter(query)
  }
}
