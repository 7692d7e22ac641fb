/** Most path segments `shortPath` shows, and most characters of one segment. */
const SHOWN_SEGMENTS = 8
const SHOWN_SEGMENT_CHARS = 40

/**
 * Formats a path for an error: segments joined with `.`, long segments cut at 40 characters, at most 8 segments
 * then `…` (a path past 64 levels would otherwise fill the message); `(root)` when empty.
 *
 * @example
 * ```ts
 * shortPath(['metadata', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a']) // 'metadata.a.a.a.a.a.a.a…'
 * ```
 */
export function shortPath(segments: ReadonlyArray<string | number>): string {
  if (segments.length === 0) return '(root)'
  const shown = segments.slice(0, SHOWN_SEGMENTS).map((segment) => {
    const text = String(segment)
    return text.length > SHOWN_SEGMENT_CHARS ? `${text.slice(0, SHOWN_SEGMENT_CHARS)}…` : text
  })
  return `${shown.join('.')}${segments.length > SHOWN_SEGMENTS ? '…' : ''}`
}
