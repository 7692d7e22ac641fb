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
