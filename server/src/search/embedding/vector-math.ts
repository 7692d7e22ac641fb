/**
 * Scales `vector` in place to length 1 and returns it; a zero vector stays zero (it is close to nothing).
 *
 * @example
 * ```ts
 * normalizeInPlace(Float32Array.of(3, 4)) // Float32Array [0.6, 0.8]
 * ```
 */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let sum = 0
  for (const value of vector) sum += value * value
  if (sum === 0) return vector
  const scale = 1 / Math.sqrt(sum)
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale
  return vector
}

/**
 * The dot product of two vectors of the same length: their cosine when both are unit length.
 *
 * @example
 * ```ts
 * dot(Float32Array.of(1, 0), Float32Array.of(0.6, 0.8)) // 0.6
 * ```
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}
