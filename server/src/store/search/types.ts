import type { NormalizedTagCondition } from 'botshelf/api'
import type { FilesAccessScope } from '../files/types.js'

/** The structural kind of a passage, as the wire's `meta.subtype` names it. */
export type PassageSubtype = 'title' | 'subtitle' | 'paragraph' | 'blockquote' | 'list' | 'table' | 'code' | 'image' | 'page'

/**
 * What a passage is, as the wire's `meta.type` names it: a `chunk` of the document, a `summary` a language model wrote
 * of a section or of the whole document, or an `image` caption (decision 1435). `consolidated` is made at search time
 * and never stored.
 */
export type StoredPassageType = 'chunk' | 'summary' | 'image'

/** A passage to index: its text, its kind, where it sits in the document, and its vector when an embedder made one. */
export interface PassageInput {
  content: string
  /** `chunk` when absent. */
  type?: StoredPassageType
  subtype: PassageSubtype
  pageNumber?: number
  /** Headings above the passage, outermost first (empty at top level). */
  breadcrumb: ReadonlyArray<string>
  /** Unit-normalised embedding of `content`, or `null` when the index is lexical only. */
  vector: Float32Array | null
}

/** A stored passage. `position` is its place in document order, from 0, dense within one file. */
export interface PassageRecord {
  id: string
  fileId: string
  botId: string
  position: number
  content: string
  type: StoredPassageType
  subtype: PassageSubtype
  pageNumber: number | null
  breadcrumb: string[]
}

/** What replaces the passages of a file: all of them, in document order, embedded by `embedderId` (or none). */
export interface ReplacePassagesInput {
  fileId: string
  botId: string
  /** The embedder that made the vectors (vectors of another embedder are never compared); `null` when none. */
  embedderId: string | null
  passages: ReadonlyArray<PassageInput>
}

/** A search: text, an optional query vector, the caller's scope and tag filter (applied inside the query), a limit. */
export interface SearchQuery {
  botId: string
  scope: FilesAccessScope
  tags?: ReadonlyArray<NormalizedTagCondition>
  /** The query as the user wrote it; the store picks its words. */
  text: string
  /** The query embedded by the same embedder as the passages; absent: lexical ranking alone. */
  vector?: { embedderId: string; values: Float32Array }
  /** Most hits returned. */
  limit: number
  /** The relevance floor: hits scoring under it are left out (default 0: every candidate), e.g. `0.15`. */
  minScore?: number
}

/**
 * One ranked passage; `score` is its relevance in [0, 1] (the calibrated probability that it answers the query,
 * decision 1431), and hits come in descending score.
 */
export interface SearchHit {
  passage: PassageRecord
  score: number
}

/** Accounting of the index for a set of bots: passages, their text bytes (UTF-8) and their vector bytes. */
export interface SearchUsage {
  passages: number
  passageBytes: number
  vectorBytes: number
}

/** Query of {@link SearchIndexPort.listPassages}: one file, in document order, after a position. */
export interface PassageListQuery {
  fileId: string
  pageSize: number
  /** Position of the last passage of the previous page. */
  afterPosition?: number
}

/**
 * A file whose passages were not all embedded by a given embedder (made by another one, or by none): what
 * `botshelf reindex` re-embeds.
 *
 * @example
 * ```ts
 * const stale: StaleFile = { fileId: 'file_01', botId: 'bot_1', passages: 12 }
 * ```
 */
export interface StaleFile {
  fileId: string
  botId: string
  /** How many of its passages carry no vector of that embedder. */
  passages: number
}

/**
 * New vectors for passages of one file, all made by `embedderId`, keyed by passage id.
 *
 * @example
 * ```ts
 * const input: PassageVectorsInput = { fileId, embedderId: 'offline:...', vectors: [{ passageId, vector }] }
 * ```
 */
export interface PassageVectorsInput {
  fileId: string
  embedderId: string
  vectors: ReadonlyArray<{ passageId: string; vector: Float32Array }>
}
