/** Texts of frozen answers already written once; an entry goes when its answer object is collected. */
const texts = new WeakMap<object, string>()

/**
 * `JSON.stringify(value)`, kept for a frozen object so the same answer object sent again costs a lookup (a `getFile`
 * answer of an unchanged file within one second is the same frozen object: `files/wire-file-memo.ts`). Only
 * values frozen all the way down may be frozen at the top: a mutable object inside one would let its kept text
 * go stale. Anything not frozen is stringified each time.
 *
 * @example
 * ```ts
 * const answer = Object.freeze({ file: Object.freeze({ id: 'file_1' }) })
 * jsonText(answer) === jsonText(answer) // the second call reads the kept text
 * ```
 */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value)
  let text = texts.get(value)
  if (text === undefined) {
    text = JSON.stringify(value)
    texts.set(value, text)
  }
  return text
}
