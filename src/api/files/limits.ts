/**
 * Limits of the Files API, the platform's and those it leaves unpublished (docs/wire-format.md §5). One table, used
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
  /** Longest tag value, in characters (docs/wire-format.md §10). */
  tagValueMaxLength: 1000,
  /** Largest content of one file, in bytes: 1 GB (docs/wire-format.md §5). */
  fileMaxBytes: 1024 * 1024 * 1024,
  /**
   * Most tag keys in one tag filter (`listFiles`, `searchFiles`, `listKnowledgeBases`): a file has at most 50
   * tags, so a filter on more keys could only match nothing (docs/decisions/0701-input-bounds.md).
   */
  tagFilterKeysMax: 50,
  /** Most values one tag key of a tag filter lists, `in` and `not` together. */
  tagFilterValuesMax: 100,
  /** Most ids in one `listFiles` call (docs/wire-format.md §5). */
  listIdsMax: 50,
  /** Default page size of every Files API list (docs/wire-format.md §4). */
  pageSizeDefault: 20,
  /** Largest page size accepted. */
  pageSizeMax: 100,
  /** Furthest `expiresAt` may be, in days (docs/wire-format.md §5). */
  expiresAtMaxDays: 90,
  /** Largest content that is indexed, in bytes: 95 MB (docs/wire-format.md §11); larger files fail indexing. */
  indexableMaxBytes: 95 * 1024 * 1024,
  /** Default `maximumChunkLength` of indexing, in characters (the wire accepts 100 to 5000). */
  chunkLengthDefault: 1000,
  /** Default and largest `limit` of `listFilePassages`. */
  passagesPageDefault: 20,
  passagesPageMax: 200,
  /** Default `limit` of `searchFiles`. */
  searchResultsDefault: 20,
  /** Default `contextDepth` of `searchFiles` (passages before and after a hit). */
  searchContextDepthDefault: 1,
  /** Largest search query, in bytes: 1 KB (docs/wire-format.md §5). */
  searchQueryMaxBytes: 1024,
  /** Most results of one search (docs/wire-format.md §5). */
  searchResultsMax: 50,
  /** Longest knowledge base name, in characters. */
  knowledgeBaseNameMaxLength: 256,
  /**
   * Metadata of one file, as UTF-8 JSON, after any merge: the files API's payload limit, 1 MiB (docs/wire-format.md
   * §5), so what one valid request can write is accepted and a merge never grows past it (decision 1441).
   */
  metadataMaxBytes: 1024 * 1024,
} as const
