import { createHash } from 'node:crypto'
import { EmbedderUnavailableError, type Embedder } from '../embedding/index.js'

/** A test embedder whose availability tests switch, and which counts its calls. */
export interface HashedTestEmbedder extends Embedder {
  /** While set, every call throws `EmbedderUnavailableError` with this `retryAfterMs`. */
  unavailableFor: number | undefined
  /** Texts embedded so far, by purpose. */
  calls: { query: number; passage: number }
}

/**
 * A deterministic bag-of-words embedder for tests: each lower-cased word adds 1 to a dimension picked by its hash,
 * then the vector is normalised. Texts sharing words are close; nothing semantic.
 *
 * @example
 * ```ts
 * const embedder = hashedTestEmbedder(64)
 * embedder.unavailableFor = 1000 // an outage
 * ```
 */
export function hashedTestEmbedder(dimensions = 64): HashedTestEmbedder {
  const embedder: HashedTestEmbedder = {
    id: `test-hashed-bow-${dimensions}`,
    label: 'hashed bag of words (tests)',
    unavailableFor: undefined,
    calls: { query: 0, passage: 0 },
    async dimensions() {
      return dimensions
    },
    async embed(texts, options) {
      if (embedder.unavailableFor !== undefined) throw new EmbedderUnavailableError('the test embedder is switched off', embedder.unavailableFor)
      embedder.calls[options?.purpose ?? 'passage'] += texts.length
      return texts.map((text) => {
        const vector = new Float32Array(dimensions)
        for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) vector[createHash('sha1').update(word).digest().readUInt32BE(0) % dimensions]! += 1
        const norm = Math.hypot(...vector) || 1
        return vector.map((value) => value / norm)
      })
    },
  }
  return embedder
}
