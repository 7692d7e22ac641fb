/**
 * The patch that turns `before` into `after` for a merge update (updateFileMetadata merges `metadata`, and a
 * `null` value deletes a key): changed and new keys with their value, removed keys as `null`.
 *
 * @example
 * ```ts
 * metadataPatch({ a: 1, b: 2 }, { a: 1, c: 3 }) // { b: null, c: 3 }
 * ```
 */
export function metadataPatch(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) patch[key] = value
  }
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null
  return patch
}
