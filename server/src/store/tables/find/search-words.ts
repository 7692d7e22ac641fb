/**
 * The distinct words of a search string (letters, digits and `_`), in order: what full-text search looks for,
 * any of them matching. Punctuation and operators of search syntaxes are dropped, so none leaks in.
 *
 * @example
 * ```ts
 * searchWords('March invoices! march') // ['March', 'invoices', 'march']
 * searchWords('--') // []
 * ```
 */
export function searchWords(search: string): string[] {
  return [...new Set(search.match(/[\p{L}\p{N}_]+/gu) ?? [])]
}
