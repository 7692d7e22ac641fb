import { inputBounds } from 'botshelf/api'
import { shortPath, type ReadableIssue } from 'botshelf/api'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d

/** Most characters of a key decoded for an error (`shortPath` shows 40). */
const SHOWN_KEY_CHARS = 160

/** Options of `jsonTextIssue`. */
export interface JsonTextBoundsOptions {
  /**
   * Most levels of nesting; default `inputBounds.jsonDepthMax` (64).
   *
   * @example
   * ```ts
   * jsonTextIssue('[[1]]', { maxDepth: 1 }) // the issue at path "0"
   * ```
   */
  maxDepth?: number
  /**
   * Path segments put before the ones found in the text (where the text came from), e.g. a query parameter.
   *
   * @example
   * ```ts
   * jsonTextIssue('{"__proto__":1}', { prefix: ['tags'] })?.path // 'tags.__proto__'
   * ```
   */
  prefix?: ReadonlyArray<string | number>
}

/** Index of the quote that closes the string opening at `start`, or -1 when it never closes. */
function stringEnd(text: string, start: number): number {
  let from = start + 1
  for (;;) {
    const quote = text.indexOf('"', from)
    if (quote < 0) return -1
    let backslashes = 0
    for (let p = quote - 1; text.charCodeAt(p) === BACKSLASH; p--) backslashes++
    if (backslashes % 2 === 0) return quote
    from = quote + 1
  }
}

/** The string value of the JSON string literal `text[start..end]` (quotes included), shortened for display. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, Math.min(end + 1, start + SHOWN_KEY_CHARS))
  if (raw.length === end + 1 - start) {
    try {
      return JSON.parse(raw) as string
    } catch {
      // Not a valid literal: show it as written.
    }
  }
  return raw.slice(1)
}

function isForbiddenKey(text: string, start: number, end: number): boolean {
  const length = end + 1 - start
  if (length === inputBounds.forbiddenKey.length + 2) return text.startsWith(`"${inputBounds.forbiddenKey}"`, start)
  // The same name written with escapes (`"\u005f_proto__"`) is at most six characters per letter long.
  if (length > 6 * inputBounds.forbiddenKey.length + 2) return false
  let escaped = false
  for (let i = start + 1; i < end && !escaped; i++) escaped = text.charCodeAt(i) === BACKSLASH
  if (!escaped) return false
  try {
    return JSON.parse(text.slice(start, end + 1)) === inputBounds.forbiddenKey
  } catch {
    return false
  }
}

/**
 * Checks JSON text, before it is parsed, against the input bounds (docs/decisions/0701-input-bounds.md): at most
 * 64 levels of nesting, and no key `"__proto__"` (written plainly or with escapes). Returns the first problem as a
 * readable issue naming where it is (`metadata.a.a.a…: expected at most 64 levels of nesting, received more than
 * 64`), or `undefined`. One pass over the text without recursion, and no value is built, so a body nested a
 * million levels deep costs one linear scan, stopped at level 65. Malformed JSON is left to `JSON.parse` to
 * report.
 *
 * @example
 * ```ts
 * jsonTextIssue('{"metadata":' + '{"a":'.repeat(100) + '1' + '}'.repeat(101))?.message
 * // 'metadata.a.a.a.a.a.a.a…: expected at most 64 levels of nesting, received more than 64'
 * jsonTextIssue('{"tags":{"__proto__":"x"}}')?.path // 'tags.__proto__'
 * jsonTextIssue('{"ok":[1,2,{"a":null}]}') // undefined
 * ```
 */
export function jsonTextIssue(text: string, options: JsonTextBoundsOptions = {}): ReadableIssue | undefined {
  const maxDepth = options.maxDepth ?? inputBounds.jsonDepthMax
  // One entry per open container: is it an object, the element index (arrays) or the current key's literal.
  const isObject: boolean[] = []
  const index: number[] = []
  const keyStart: number[] = []
  const keyEnd: number[] = []
  const expectKey: boolean[] = []
  let depth = 0

  const pathOf = (levels: number): Array<string | number> => {
    const path: Array<string | number> = [...(options.prefix ?? [])]
    for (let level = 0; level < levels; level++) {
      if (!isObject[level]) path.push(index[level]!)
      else if (keyStart[level]! >= 0) path.push(keyText(text, keyStart[level]!, keyEnd[level]!))
    }
    return path
  }

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      if (end < 0) return undefined
      const top = depth - 1
      if (top >= 0 && isObject[top] && expectKey[top]) {
        expectKey[top] = false
        keyStart[top] = i
        keyEnd[top] = end
        if (isForbiddenKey(text, i, end)) {
          const path = shortPath(pathOf(depth))
          const expected = `a key other than "${inputBounds.forbiddenKey}"`
          const received = `"${inputBounds.forbiddenKey}"`
          return { path, expected, received, message: `${path}: expected ${expected}, received ${received}`, code: 'forbidden_key' }
        }
      }
      i = end
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= maxDepth) {
        const path = shortPath(pathOf(depth))
        const expected = `at most ${maxDepth} levels of nesting`
        const received = `more than ${maxDepth}`
        return { path, expected, received, message: `${path}: expected ${expected}, received ${received}`, code: 'too_deep' }
      }
      isObject[depth] = c === OPEN_OBJECT
      expectKey[depth] = c === OPEN_OBJECT
      index[depth] = 0
      keyStart[depth] = -1
      depth++
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--
    } else if (c === COMMA && depth > 0) {
      if (isObject[depth - 1]) expectKey[depth - 1] = true
      else index[depth - 1]!++
    }
  }
  return undefined
}
