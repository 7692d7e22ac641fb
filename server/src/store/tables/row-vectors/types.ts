/** The embedding of a search, for the vector half of hybrid table search. */
export interface QueryVector {
  /** Id of the embedder that made `values` (only row vectors of the same id are compared). */
  embedderId: string
  /** Unit-length vector. */
  values: Float32Array
}

/** Rows an embedding job took: their ids and searchable text, under one claim `token`. */
export interface StaleRowsClaim {
  /** Names this claim when the vectors are written back (`setRowVectors`). */
  token: string
  /** The claimed rows, oldest id first, with the text to embed (`searchableText`). */
  rows: Array<{ id: number; text: string }>
}

/** What `claimStaleRows` takes. */
export interface ClaimStaleRowsInput {
  /** The embedder the vectors are for: rows with a vector of this id are not stale. */
  embedderId: string
  /** Rows to claim at most. */
  limit: number
  /** How long the claim holds, in milliseconds; after it another job may claim the rows again. */
  leaseMs: number
}

/** What `setRowVectors` takes: the vectors of claimed rows (`null`: the row has no text to embed). */
export interface SetRowVectorsInput {
  token: string
  embedderId: string
  vectors: ReadonlyArray<{ id: number; vector: Float32Array | null }>
}

/** The embedding counts of a table for one embedder (decision 0860). */
export interface RowVectorCounts {
  /** Rows with no vector of the embedder: never embedded, written since, or embedded by another embedder. */
  stale: number
  /** Stale rows an embedding job holds right now (an unexpired claim): `indexing ≤ stale`. */
  indexing: number
}
