/** The most JSON text one computed value may take: a cell, not a document (it is parsed on the service's main thread). */
export const MAX_RESULT_JSON_BYTES = 1024 * 1024

/**
 * The row as the JSON text the sandbox parses into `row`, with `JSON.stringify`'s rules: a `Date` becomes its ISO
 * string, `undefined` and function properties are left out, `NaN` and `Infinity` become `null`. A row that has no
 * JSON form (a `BigInt`, a cycle) gives a reason instead.
 *
 * @example
 * ```ts
 * encodeRow({ name: 'Ada', born: new Date('1815-12-10T00:00:00Z') }) // { json: '{"name":"Ada","born":"1815-12-10T00:00:00.000Z"}' }
 * encodeRow({ id: 1n }) // { reason: 'the row has no JSON form: Do not know how to serialize a BigInt' }
 * ```
 */
export function encodeRow(row: Record<string, unknown>): { json: string } | { reason: string } {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    return { reason: `the row must be an object of column values, received ${row === null ? 'null' : Array.isArray(row) ? 'an array' : typeof row}` }
  }
  try {
    return { json: JSON.stringify(row) }
  } catch (error) {
    return { reason: `the row has no JSON form: ${(error as Error)?.message ?? String(error)}` }
  }
}

/**
 * The value of a computation from the JSON text the sandbox produced, or a reason when it is larger than
 * `MAX_RESULT_JSON_BYTES`.
 *
 * @example
 * ```ts
 * decodeResult('{"label":"spam"}') // { value: { label: 'spam' } }
 * ```
 */
export function decodeResult(json: string): { value: unknown } | { reason: string } {
  const bytes = Buffer.byteLength(json)
  if (bytes > MAX_RESULT_JSON_BYTES) {
    return { reason: `the code returned ${bytes} bytes of JSON; a computed value may take at most ${MAX_RESULT_JSON_BYTES} bytes` }
  }
  try {
    return { value: JSON.parse(json) as unknown }
  } catch (error) {
    return { reason: `the code returned a value with no JSON form: ${(error as Error).message}` }
  }
}
