/**
 * Inline text with every run of whitespace (line breaks, tabs, no-break spaces) made one space, trimmed.
 *
 * @example
 * ```ts
 * normalizeInline('  a\n\t b ') // 'a b'
 * ```
 */
export function normalizeInline(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * Preformatted text (code) keeps its lines and indentation: trailing spaces go, line endings become `\n`, runs of
 * blank lines become one, and blank lines at either end go.
 *
 * @example
 * ```ts
 * normalizeCode('\n  x = 1  \r\n\n\n  y = 2\n') // '  x = 1\n\n  y = 2'
 * ```
 */
export function normalizeCode(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '')
}
