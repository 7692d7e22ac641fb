/** The outcome of reading a `Range` header against a content size. */
export type RangeOutcome =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' }

/**
 * Interprets a `Range` header for a content of `size` bytes (RFC 9110 §14): one `bytes=` range, in the forms
 * `a-b`, `a-` and `-n` (the last n bytes); `end` is clamped to the size. A header that is absent, malformed,
 * not in bytes or asks for several ranges is ignored (the whole content is served, as the RFC allows).
 *
 * @example
 * ```ts
 * parseRange('bytes=0-99', 1000) // { kind: 'partial', start: 0, end: 99 }
 * parseRange('bytes=-10', 1000) // { kind: 'partial', start: 990, end: 999 }
 * parseRange('bytes=5000-', 1000) // { kind: 'unsatisfiable' }
 * ```
 */
export function parseRange(header: string | undefined, size: number): RangeOutcome {
  if (!header) return { kind: 'full' }
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!match) return { kind: 'full' }
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return { kind: 'full' }
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (last !== '' && Number(last) < start) return { kind: 'full' }
  if (start >= size) return { kind: 'unsatisfiable' }
  return { kind: 'partial', start, end }
}

/**
 * Whether an `If-None-Match` header matches an ETag (weak comparison; `*` matches any).
 *
 * @example
 * ```ts
 * etagMatches('W/"abc", "def"', '"abc"') // true
 * ```
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false
  const strip = (tag: string): string => tag.trim().replace(/^W\//, '')
  return header.split(',').some((candidate) => candidate.trim() === '*' || strip(candidate) === strip(etag))
}
