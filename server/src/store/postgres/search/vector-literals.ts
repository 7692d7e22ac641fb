/**
 * A vector as the text pgvector reads (`[0.1,0.2]`): parameters stay text, so the same statement works on every
 * PostgreSQL client.
 *
 * @example
 * ```ts
 * pgvectorLiteral(new Float32Array([0.6, 0.8])) // '[0.6000000238418579,0.800000011920929]'
 * ```
 */
export function pgvectorLiteral(values: Float32Array): string {
  return `[${checkedValues(values).join(',')}]`
}

/**
 * A vector as the hex of its little-endian float32 bytes, the text `decode(hex, 'hex')` turns into the `bytea` of
 * the exact mode.
 *
 * @example
 * ```ts
 * float32Hex(new Float32Array([1])) // '0000803f'
 * ```
 */
export function float32Hex(values: Float32Array): string {
  const bytes = new Uint8Array(checkedValues(values).length * 4)
  const view = new DataView(bytes.buffer)
  values.forEach((value, index) => view.setFloat32(index * 4, value, true))
  return Buffer.from(bytes).toString('hex')
}

/**
 * The float32 vector a `bytea` of the exact mode holds (little-endian, whatever the machine).
 *
 * @example
 * ```ts
 * float32FromBytes(row.embedding)
 * ```
 */
export function float32FromBytes(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const values = new Float32Array(bytes.byteLength / 4)
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true)
  return values
}

/**
 * A vector as a PostgreSQL array literal (`{0.1,0.2}`) for a `real[]` column.
 *
 * @example
 * ```ts
 * realArrayLiteral(new Float32Array([0.6, 0.8])) // '{0.6000000238418579,0.800000011920929}'
 * ```
 */
export function realArrayLiteral(values: Float32Array): string {
  return `{${checkedValues(values).join(',')}}`
}

function checkedValues(values: Float32Array): number[] {
  const list = Array.from(values)
  const bad = list.findIndex((value) => !Number.isFinite(value))
  if (bad !== -1) throw new RangeError(`vector[${bad}]: expected a finite number, received ${list[bad]}`)
  return list
}
