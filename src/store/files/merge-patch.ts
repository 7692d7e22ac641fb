/**
 * Applies a merge patch: a value sets the key, `null` deletes it, absent keys stay.
 *
 * @example
 * ```ts
 * mergePatch({ a: 1, b: 2 }, { b: null, c: 3 }) // { a: 1, c: 3 }
 * ```
 */
export function mergePatch<T>(current: Record<string, T>, patch: Record<string, T | null> | undefined): Record<string, T> {
  if (!patch) return current
  const merged: Record<string, T> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key]
    else merged[key] = value
  }
  return merged
}
