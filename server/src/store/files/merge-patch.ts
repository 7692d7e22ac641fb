/**
 * Applies a merge patch: a value sets the key, `null` deletes it, absent keys stay. Keys are data, never
 * properties of a prototype: the merge goes through a `Map` and the result is built with `Object.fromEntries`,
 * so `constructor` or `toString` are keys like any other (docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * mergePatch({ a: 1, b: 2 }, { b: null, c: 3 }) // { a: 1, c: 3 }
 * ```
 */
export function mergePatch<T>(current: Record<string, T>, patch: Record<string, T | null> | undefined): Record<string, T> {
  if (!patch) return current
  const merged = new Map<string, T>(Object.entries(current))
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key)
    else merged.set(key, value)
  }
  return Object.fromEntries(merged)
}
