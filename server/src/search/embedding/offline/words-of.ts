/**
 * Splits text into lowercase words the way the offline embedder reads them: Unicode letters and digits, diacritics
 * removed, everything else a separator ("Ça coûte 5€, don't" → `['ca', 'coute', '5', 'don', 't']`). camelCase and
 * snake_case identifiers split into their words too, so `retryAfterMs` reads as "retry after ms".
 *
 * @example
 * ```ts
 * wordsOf('Retry-After: 2 s') // ['retry', 'after', '2', 's']
 * ```
 */
export function wordsOf(text: string): string[] {
  const spaced = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
  return spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}
