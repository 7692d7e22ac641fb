import { randomUUID } from 'node:crypto'
import { passageRowToRecord, type PassageRow } from '../../search/passage-row.js'
import { searchWords } from '../../tables/find/search-words.js'
import type { FilesAccessScope } from '../../files/types.js'
import type {
  PassageListQuery,
  PassageRecord,
  PassageVectorsInput,
  ReplacePassagesInput,
  SearchHit,
  SearchQuery,
  SearchUsage,
  StaleFile,
} from '../../search/types.js'
import type { Sqlite } from '../connect.js'
import { StatementCache } from '../tables/statements.js'
import { evidenceText, fuseByReciprocalRank, keepLexicalTop, rankByRelevance, RESCORED_CANDIDATES, RRF_K, STOP_WORDS } from '../../../search/ranking/index.js'
import { dot } from '../../../search/embedding/vector-math.js'
import { tagConditionsSql } from '../tag-sql.js'
import { int8Copy } from './int8-copy.js'
import { SqliteVectorLists } from './vector-lists.js'
import { systemClock, type Clock } from '../../clock.js'


/** Candidates each ranking (lexical, vector) contributes to the fusion. */
const CANDIDATES = 100
/**
 * Passages the vector scan keeps by their int8 copies before the float32 ranking (decision 1457): 4 × `CANDIDATES`,
 * so a passage the quantization moved a few places (distances move by a few thousandths) still reaches the exact stage.
 */
const SHORTLIST = 4 * CANDIDATES


function vectorBytes(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)
}

/** The cosine of the query's vector and a stored one of the same embedder and length; `null` when not comparable. */
function cosineWith(query: SearchQuery['vector'], embedderId: string | null, embedding: Buffer | null): number | null {
  if (!query || embedderId !== query.embedderId || !embedding || embedding.byteLength !== query.values.byteLength) return null
  // Both are unit vectors (the embedder's contract): the dot product is the cosine.
  const aligned = embedding.byteOffset % 4 === 0 ? embedding : new Uint8Array(embedding)
  return dot(query.values, new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4))
}

/**
 * FTS5 query of the user's content words: each quoted (no operator leaks in), any of them matching; BM25 ranks.
 * Stop words are dropped (decision 0812: better hybrid quality, and a word found in every passage would make BM25
 * rank every passage of the bot); a query of stop words alone keeps them, so it still finds its phrase.
 */
function ftsQuery(text: string): string | undefined {
  const words = searchWords(text)
  if (words.length === 0) return undefined
  const content = words.filter((word) => !STOP_WORDS.has(word.toLowerCase()))
  return (content.length > 0 ? content : words).map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ')
}

function scopeSql(scope: FilesAccessScope): { sql: string; params: unknown[] } {
  if (scope.kind === 'all') return { sql: '1 = 1', params: [] }
  return { sql: '(f.owner_scope = ? OR f.policy_integrations = 1)', params: [scope.integrationName] }
}

/**
 * The search index on the embedded SQLite database (the synchronous form of `SearchIndexPort`): passages in
 * `search_passages`, their text in an FTS5 index ranked by BM25, their vectors compared exactly with
 * `vec_distance_cosine`. Both rankings join the files table and apply the bot, the caller's scope, the tag filter
 * and expiry inside the query, before ranking; the two lists are fused by reciprocal rank.
 *
 * @example
 * ```ts
 * const search = new SqliteSearchStore(db, now)
 * search.replacePassages({ fileId, botId, embedderId: null, passages: [{ content: 'Hello', subtype: 'paragraph', breadcrumb: [], vector: null }] })
 * search.search({ botId, scope: { kind: 'all' }, text: 'hello', limit: 5 })
 * ```
 */
export class SqliteSearchStore {
  /** The approximate vector stage: lists per bot and embedder past a size, probed by queries (decision 0821). */
  readonly lists: SqliteVectorLists

  /** Statements of the write path (every content commit deletes the file's earlier passages), compiled once. */
  private readonly statements: StatementCache

  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock = systemClock,
    lists?: SqliteVectorLists,
  ) {
    this.lists = lists ?? new SqliteVectorLists(db)
    this.statements = new StatementCache(db)
  }

  /**
   * Replaces every passage of a file in one transaction.
   *
   * @example
   * ```ts
   * search.replacePassages({ fileId, botId, embedderId: 'hash-64', passages })
   * ```
   */
  replacePassages(input: ReplacePassagesInput): void {
    const insert = this.db.prepare(
      `INSERT INTO search_passages (id, file_id, bot_id, position, content, passage_type, subtype, page_number, breadcrumb_json, embedder_id, embedding, embedding_i8, list_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const previous = this.embeddersOf(input.fileId)
    this.db.transaction(() => {
      const place = this.lists.assigner(input.botId, input.embedderId)
      this.db.prepare('DELETE FROM search_passages WHERE file_id = ?').run(input.fileId)
      input.passages.forEach((passage, position) => {
        const embedderId = passage.vector ? input.embedderId : null
        insert.run(
          randomUUID(),
          input.fileId,
          input.botId,
          position,
          passage.content,
          passage.type ?? 'chunk',
          passage.subtype,
          passage.pageNumber ?? null,
          JSON.stringify(passage.breadcrumb),
          embedderId,
          passage.vector ? vectorBytes(passage.vector) : null,
          // Written here, so the trigger that fills a missing copy has nothing to do (one row write, not two).
          passage.vector ? (int8Copy(passage.vector) ?? null) : null,
          embedderId === null ? null : place(passage.vector),
        )
      })
    })()
    for (const embedderId of new Set([...previous.map((row) => row.embedderId), input.embedderId])) this.lists.changed(input.botId, embedderId)
  }

  /** The bots and embedders of a file's passages (whose lists a change of the file may concern). */
  private embeddersOf(fileId: string): Array<{ botId: string; embedderId: string | null }> {
    return this.statements
      .prepare('SELECT DISTINCT bot_id AS botId, embedder_id AS embedderId FROM search_passages WHERE file_id = ?')
      .all(fileId) as Array<{ botId: string; embedderId: string | null }>
  }

  /**
   * Deletes every passage of a file; returns how many.
   *
   * @example
   * ```ts
   * search.deleteFilePassages(fileId)
   * ```
   */
  deleteFilePassages(fileId: string): number {
    const previous = this.embeddersOf(fileId)
    // No passage to delete (a file never indexed: most content commits).
    if (previous.length === 0) return 0
    const deleted = this.statements.prepare('DELETE FROM search_passages WHERE file_id = ?').run(fileId).changes
    for (const { botId, embedderId } of previous) this.lists.changed(botId, embedderId)
    return deleted
  }

  /**
   * The best passages for a query, highest score first.
   *
   * @example
   * ```ts
   * search.search({ botId, scope: { kind: 'all' }, text: 'refund', limit: 10 })
   * ```
   */
  search(query: SearchQuery): SearchHit[] {
    const filter = this.filterSql(query)
    const lexical = this.lexicalRanking(query.text, filter)
    const vector = query.vector ? this.vectorRanking(query.botId, query.vector, filter) : []
    const fused = keepLexicalTop(fuseByReciprocalRank(vector.length > 0 ? [lexical, vector] : [lexical], { k: RRF_K }), lexical[0]).slice(0, RESCORED_CANDIDATES)
    if (fused.length === 0) return []
    const rows = this.db
      .prepare(`SELECT * FROM search_passages WHERE rowid IN (${fused.map(() => '?').join(', ')})`)
      .all(...fused.map((entry) => Number(entry.id))) as Array<PassageRow & { embedder_id: string | null; embedding: Buffer | null }>
    const byRowid = new Map(rows.map((row) => [String(row.rowid), row]))
    const candidates = fused.flatMap((entry) => {
      const row = byRowid.get(entry.id)
      if (!row) return []
      const passage = passageRowToRecord(row)
      return [{ item: passage, content: evidenceText(passage), cosine: cosineWith(query.vector, row.embedder_id, row.embedding), lexicalTop: entry.id === lexical[0] }]
    })
    return rankByRelevance(query.text, candidates, { floor: query.minScore ?? 0, limit: query.limit }).map((hit) => ({ passage: hit.item, score: hit.score }))
  }

  /**
   * One page of a file's passages in document order.
   *
   * @example
   * ```ts
   * search.listPassages({ fileId, pageSize: 20, afterPosition: 19 })
   * ```
   */
  listPassages(query: PassageListQuery): { items: PassageRecord[]; nextPosition?: number } {
    const rows = this.db
      .prepare('SELECT * FROM search_passages WHERE file_id = ? AND position > ? ORDER BY position LIMIT ?')
      .all(query.fileId, query.afterPosition ?? -1, query.pageSize + 1) as PassageRow[]
    const items = rows.slice(0, query.pageSize).map(passageRowToRecord)
    return rows.length > query.pageSize ? { items, nextPosition: items[items.length - 1]!.position } : { items }
  }

  /**
   * The passages of a file with positions in `[from, to]`, in order.
   *
   * @example
   * ```ts
   * search.passagesAround(fileId, 3, 7)
   * ```
   */
  passagesAround(fileId: string, from: number, to: number): PassageRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM search_passages WHERE file_id = ? AND position BETWEEN ? AND ? ORDER BY position')
      .all(fileId, from, to) as PassageRow[]
    return rows.map(passageRowToRecord)
  }

  /**
   * Passages, UTF-8 text bytes and vector bytes held for these bots.
   *
   * @example
   * ```ts
   * search.usage([botId]) // { passages: 12, passageBytes: 5210, vectorBytes: 4608 }
   * ```
   */
  usage(botIds: ReadonlyArray<string>): SearchUsage {
    if (botIds.length === 0) return { passages: 0, passageBytes: 0, vectorBytes: 0 }
    const row = this.db
      .prepare(
        `SELECT count(*) AS passages, coalesce(sum(length(CAST(content AS BLOB))), 0) AS passageBytes,
           coalesce(sum(length(embedding)), 0) AS vectorBytes
         FROM search_passages WHERE bot_id IN (${botIds.map(() => '?').join(', ')})`,
      )
      .get(...botIds) as SearchUsage
    return { passages: row.passages, passageBytes: row.passageBytes, vectorBytes: row.vectorBytes }
  }

  /**
   * Files holding passages without a vector of this embedder, by file id.
   *
   * @example
   * ```ts
   * search.staleFiles({ embedderId: 'offline:x', limit: 100 }) // [{ fileId, botId, passages: 12 }]
   * ```
   */
  staleFiles(query: { embedderId: string; afterFileId?: string; limit: number }): StaleFile[] {
    const rows = this.db
      .prepare(
        `SELECT file_id AS fileId, bot_id AS botId, count(*) AS passages FROM search_passages
         WHERE embedder_id IS NOT ? AND file_id > ? GROUP BY file_id, bot_id ORDER BY file_id LIMIT ?`,
      )
      .all(query.embedderId, query.afterFileId ?? '', query.limit) as StaleFile[]
    return rows
  }

  /**
   * Files and passages without a vector of this embedder.
   *
   * @example
   * ```ts
   * search.countStale('offline:x') // { files: 3, passages: 40 }
   * ```
   */
  countStale(embedderId: string): { files: number; passages: number } {
    return this.db
      .prepare('SELECT count(DISTINCT file_id) AS files, count(*) AS passages FROM search_passages WHERE embedder_id IS NOT ?')
      .get(embedderId) as { files: number; passages: number }
  }

  /**
   * Stores new vectors for passages of a file in one transaction; passages gone meanwhile are skipped.
   *
   * @example
   * ```ts
   * search.setPassageVectors({ fileId, embedderId: 'offline:x', vectors: [{ passageId, vector }] }) // 1
   * ```
   */
  setPassageVectors(input: PassageVectorsInput): number {
    const update = this.db.prepare('UPDATE search_passages SET embedder_id = ?, embedding = ?, embedding_i8 = ?, list_id = ? WHERE id = ? AND file_id = ?')
    const previous = this.embeddersOf(input.fileId)
    const botId = previous[0]?.botId
    if (botId === undefined) return 0
    const updated = this.db.transaction(() => {
      const place = this.lists.assigner(botId, input.embedderId)
      let count = 0
      for (const entry of input.vectors) {
        count += update.run(input.embedderId, vectorBytes(entry.vector), int8Copy(entry.vector) ?? null, place(entry.vector), entry.passageId, input.fileId).changes
      }
      return count
    })()
    for (const embedderId of new Set([...previous.map((row) => row.embedderId), input.embedderId])) this.lists.changed(botId, embedderId)
    return updated
  }

  private filterSql(query: SearchQuery): { sql: string; params: unknown[] } {
    const scope = scopeSql(query.scope)
    const where = ['p.bot_id = ?', 'f.bot_id = ?', '(f.expires_at IS NULL OR f.expires_at > ?)', scope.sql]
    const params: unknown[] = [query.botId, query.botId, this.now().toISOString(), ...scope.params]
    if (query.tags && query.tags.length > 0) {
      const tags = tagConditionsSql(query.tags, 'f', 'file_tags')
      where.push(tags.sql)
      params.push(...tags.params)
    }
    return { sql: where.join(' AND '), params }
  }

  /**
   * BM25 order first, filter second, same answer as one joined statement: FTS5 ranks its matches alone (cheap), the
   * first `2 × CANDIDATES` go through the bot, scope, tag and expiry filter in one statement, and the window grows ×4
   * until it holds `CANDIDATES` allowed passages or every match was seen; past 8 × CANDIDATES (a narrow filter over
   * frequent words) one statement joins every match to the filter, as before. Joining every match of a frequent word
   * to the files table before ranking was the larger half of hybrid search at 100,000 passages (bench/README.md).
   */
  private lexicalRanking(text: string, filter: { sql: string; params: unknown[] }): string[] {
    const match = ftsQuery(text)
    if (match === undefined) return []
    const ranked = this.db.prepare(
      `SELECT rowid FROM search_passages_fts WHERE search_passages_fts MATCH ? ORDER BY bm25(search_passages_fts), rowid LIMIT ?`,
    )
    // CROSS JOIN fixes the order: each ranked rowid looks up its passage, then its file. Left free, the planner
    // scanned the bot's whole run of the vector scan's covering index (it holds rowid, bot and file) instead.
    const allowed = this.db.prepare(
      `SELECT p.rowid FROM json_each(?) ranked
       CROSS JOIN search_passages p NOT INDEXED ON p.rowid = ranked.value
       CROSS JOIN files f ON f.id = p.file_id
       WHERE ${filter.sql}`,
    )
    for (let window = CANDIDATES * 2; window <= CANDIDATES * 8; window *= 4) {
      const rowids = ranked.pluck().all(match, window) as number[]
      const kept = new Set(allowed.pluck().all(JSON.stringify(rowids), ...filter.params) as number[])
      const result = rowids.filter((rowid) => kept.has(rowid))
      if (result.length >= CANDIDATES || rowids.length < window) return result.slice(0, CANDIDATES).map(String)
    }
    const rows = this.db
      .prepare(
        `SELECT p.rowid AS rowid FROM search_passages_fts
         JOIN search_passages p ON p.rowid = search_passages_fts.rowid
         JOIN files f ON f.id = p.file_id
         WHERE search_passages_fts MATCH ? AND ${filter.sql}
         ORDER BY bm25(search_passages_fts), p.rowid LIMIT ?`,
      )
      .all(match, ...filter.params, CANDIDATES) as Array<{ rowid: number }>
    return rows.map((row) => String(row.rowid))
  }

  /**
   * Nearest vectors first; a passage with no positive cosine similarity to the query is no candidate at all. A bot
   * and embedder with trained lists scan only the lists of the closest centroids (decision 0821), the filter applied
   * inside the same statement; when those lists hold fewer than `CANDIDATES` allowed vectors (a narrow filter), the
   * probe widens (×4 lists) until they do or every list was scanned, so a filter never costs a caller results.
   *
   * Two stages (decision 1457): the scan compares the int8 copies in the covering index `search_passages_vector_scan`
   * (the probed lists are contiguous runs of it, no table read per passage) and keeps the `SHORTLIST` nearest; those
   * are ranked again on their float32 vectors, so the order and distances handed on are exact.
   */
  private vectorRanking(botId: string, vector: { embedderId: string; values: Float32Array }, filter: { sql: string; params: unknown[] }): string[] {
    const bytes = vectorBytes(vector.values)
    const copy = int8Copy(vector.values)
    if (!copy) return []
    const probe = this.lists.probe(botId, vector.embedderId, vector.values)
    const scan = (lists: string | undefined): number[] =>
      this.db
        .prepare(
          `SELECT p.rowid FROM search_passages p
           JOIN files f ON f.id = p.file_id
           WHERE p.embedder_id = ? AND length(p.embedding_i8) = ? AND ${filter.sql}
           ${lists === undefined ? '' : 'AND p.list_id IN (SELECT value FROM json_each(?))'}
           ORDER BY vec_distance_cosine(vec_int8(p.embedding_i8), vec_int8(?)), p.rowid LIMIT ?`,
        )
        .pluck()
        .all(vector.embedderId, vector.values.length, ...filter.params, ...(lists === undefined ? [] : [lists]), copy, SHORTLIST) as number[]
    let shortlist: number[]
    if (!probe) shortlist = scan(undefined)
    else {
      let probed = probe.first
      for (;;) {
        shortlist = scan(JSON.stringify(Array.from(probe.order.subarray(0, probed))))
        if (shortlist.length >= CANDIDATES || probed >= probe.order.length) break
        probed = Math.min(probe.order.length, probed * 4)
      }
    }
    if (shortlist.length === 0) return []
    // The distance is computed once per row; rows with no positive similarity sort last and are dropped here (a
    // `distance < 1` term in SQL would compute it twice).
    const rows = this.db
      .prepare(
        `SELECT rowid, vec_distance_cosine(embedding, ?) AS distance FROM search_passages
         WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY distance, rowid LIMIT ?`,
      )
      .all(bytes, JSON.stringify(shortlist), CANDIDATES) as Array<{ rowid: number; distance: number }>
    return rows.filter((row) => row.distance < 1).map((row) => String(row.rowid))
  }
}
