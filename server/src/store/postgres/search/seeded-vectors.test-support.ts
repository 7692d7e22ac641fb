/**
 * Reproducible random unit vectors (a small linear congruential generator, so runs compare like with like).
 *
 * @example
 * ```ts
 * const next = seededUnitVectors(42, 64); const v = next()
 * ```
 */
export function seededUnitVectors(seed: number, dimensions: number): () => Float32Array {
  let state = seed >>> 0
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  return () => {
    const values = Array.from({ length: dimensions }, () => random() * 2 - 1)
    const norm = Math.hypot(...values)
    return new Float32Array(values.map((value) => value / norm))
  }
}

/**
 * Cosine similarity of two unit vectors (their dot product).
 *
 * @example
 * ```ts
 * dot(a, a) // 1
 * ```
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}
