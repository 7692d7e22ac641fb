/**
 * Limits of the Files API that the spec leaves to "the platform's general limits" (spec §8). One table, used
 * by the request schemas (so the client rejects the same things the server does) and by the docs.
 *
 * @example
 * ```ts
 * if (key.length > filesLimits.keyMaxLength) throw new Error('key too long')
 * ```
 */
export const filesLimits = {
  /** Longest file key, in characters. */
  keyMaxLength: 1024,
  /** Most tags on one file or knowledge base. */
  tagsMaxCount: 50,
  /** Longest tag key, in characters. */
  tagKeyMaxLength: 100,
  /** Longest tag value, in characters (wire reference §4.1). */
  tagValueMaxLength: 1000,
  /** Largest content of one file, in bytes (spec §8: 1 GB). */
  fileMaxBytes: 1024 * 1024 * 1024,
  /** Most ids in one `listFiles` call (wire reference §3). */
  listIdsMax: 50,
  /** Default page size of every Files API list (wire reference §2). */
  pageSizeDefault: 20,
  /** Largest page size accepted. */
  pageSizeMax: 100,
  /** Furthest `expiresAt` may be, in days (wire reference §4.1). */
  expiresAtMaxDays: 90,
  /** Largest search query, in bytes (spec §8: 1 KB). */
  searchQueryMaxBytes: 1024,
  /** Most results of one search (spec §8). */
  searchResultsMax: 50,
  /** Longest knowledge base name, in characters. */
  knowledgeBaseNameMaxLength: 256,
} as const
