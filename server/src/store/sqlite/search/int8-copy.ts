import type { Database as Sqlite } from 'better-sqlite3'

/**
 * The int8 copy of a float32 vector that the vector scan compares (decision 1457): each component divided by the
 * vector's largest magnitude and scaled to ±127, so every vector uses the whole int8 range (a cosine does not see
 * the scale). sqlite-vec's own `vec_quantize_int8(v, 'unit')` maps the fixed range [-1, 1]: the components of a
 * 356-dimension unit vector stay within ±0.2 and would use a fifth of it. `undefined` for a vector without a
 * non-zero component (no direction to compare).
 *
 * @example
 * ```ts
 * int8Copy(Float32Array.of(0.6, -0.8)) // Buffer of Int8Array [95, -127]
 * ```
 */
export function int8Copy(vector: Float32Array): Buffer | undefined {
  let largest = 0
  for (const value of vector) largest = Math.max(largest, Math.abs(value))
  if (!(largest > 0) || !Number.isFinite(largest)) return undefined
  const copy = new Int8Array(vector.length)
  const scale = 127 / largest
  for (let i = 0; i < vector.length; i++) copy[i] = Math.round(vector[i]! * scale)
  return Buffer.from(copy.buffer)
}

/**
 * Registers `botshelf_int8(blob)` on a connection: the {@link int8Copy} of a float32 blob, NULL for NULL, an empty
 * blob, one whose length is not a multiple of 4, or a vector of zeros. The search index's triggers call it on every
 * write of a passage's vector, so every connection that writes passages has it (`openDatabase`).
 *
 * @example
 * ```ts
 * registerInt8Copy(db)
 * db.prepare('SELECT botshelf_int8(embedding) FROM search_passages').pluck().all()
 * ```
 */
export function registerInt8Copy(db: Sqlite): void {
  db.function('botshelf_int8', { deterministic: true }, (blob: unknown) => {
    if (!(blob instanceof Uint8Array) || blob.byteLength === 0 || blob.byteLength % 4 !== 0) return null
    const aligned = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob)
    return int8Copy(new Float32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4)) ?? null
  })
}
