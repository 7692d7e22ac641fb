import type { ReadableIssue } from 'botshelf/api'
import { jsonTextIssue } from './json-text-bounds.js'

/** What parsing a JSON body gave: a value, a bounds problem (depth, `__proto__`), or a syntax error. */
export type JsonParseOutcome = { kind: 'value'; value: unknown } | { kind: 'bounds'; issue: ReadableIssue } | { kind: 'syntax'; reason: string }

/**
 * Decodes UTF-8 bytes, checks the input bounds on the text, then parses it: the one parse of request bodies,
 * run inline for small bodies and on the worker thread for large ones. An empty or blank body is `undefined`.
 *
 * @example
 * ```ts
 * parseJsonBytes(Buffer.from('{"a":1}')) // { kind: 'value', value: { a: 1 } }
 * ```
 */
export function parseJsonBytes(bytes: Uint8Array): JsonParseOutcome {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  if (text.trim() === '') return { kind: 'value', value: undefined }
  const issue = jsonTextIssue(text)
  if (issue) return { kind: 'bounds', issue }
  try {
    return { kind: 'value', value: JSON.parse(text) as unknown }
  } catch (error) {
    return { kind: 'syntax', reason: error instanceof Error ? error.message : String(error) }
  }
}
