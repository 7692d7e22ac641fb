/**
 * What one `embed` call is for. Some models embed questions and passages differently (an instruction prefix, an
 * asymmetric encoder); the others ignore it.
 *
 * @example
 * ```ts
 * const options: EmbedOptions = { purpose: 'query', signal: AbortSignal.timeout(5_000) }
 * ```
 */
export interface EmbedOptions {
  /** Aborts the call (and any wait between retries), e.g. `{ signal: AbortSignal.timeout(5_000) }`. */
  signal?: AbortSignal
  /** `{ purpose: 'query' }` for a search question, `{ purpose: 'passage' }` (the default) for indexed text. */
  purpose?: 'query' | 'passage'
}

/**
 * The embeddings port: turns texts into unit-length vectors whose dot product measures closeness of meaning. The
 * search index stores the vectors with the embedder's `id`, and re-embeds everything when the id changes.
 *
 * @example
 * ```ts
 * const embedder = await createOfflineEmbedder()
 * const [query] = await embedder.embed(['how do I get my money back'], { purpose: 'query' })
 * console.log(embedder.id, query!.length)
 * ```
 */
export interface Embedder {
  /**
   * Adapter, model and dimension, e.g. `offline:sif-wink100+ngram@1` or `openai:text-embedding-3-small:1536`.
   * Vectors made under one id are comparable; another id means the index must be rebuilt. An adapter that learns
   * its dimension from a remote service knows its id only after `dimensions()` (or a first `embed`) resolved.
   */
  readonly id: string
  /** A human name for the start banner and the docs. */
  readonly label: string
  /** The length of every vector this embedder returns. */
  dimensions(): Promise<number>
  /** One unit-normalised vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>
  /** Releases what the embedder holds (connections, memory). */
  close?(): Promise<void>
}
