import { wordsOf } from '../embedding/offline/words-of.js'
import { lightStem } from './light-stem.js'
import { STOP_WORDS } from './stop-words.js'

/**
 * The stems of a text's content words, once each, in order of first appearance: what the relevance score compares
 * between a query and a passage. A text of stop words alone keeps them (a query "to be or not to be" still has terms).
 *
 * @example
 * ```ts
 * contentStems('How do I get refunds?') // ['refund']
 * ```
 */
export function contentStems(text: string): string[] {
  const words = wordsOf(text)
  const content = words.filter((word) => !STOP_WORDS.has(word))
  return [...new Set((content.length > 0 ? content : words).map(lightStem))]
}

/**
 * For each candidate passage of a query, the share of the query's terms it holds (0 to 1). A term counts more when it
 * is longer and when fewer of the candidates hold it: a passage holding "ZX-81" covers "ZX-81 purr" better than
 * one holding "purr" that many passages share. Only the query and its candidates count, never the rest of the
 * index, so unrelated files added later change nothing.
 *
 * @example
 * ```ts
 * candidateCoverages('ZX-81 purr', ['ZX-81 error code table', 'cats purr', 'kittens purr']) // [0.67, 0.17, 0.17]
 * ```
 */
export function candidateCoverages(query: string, contents: readonly string[]): number[] {
  const terms = contentStems(query)
  if (terms.length === 0) return contents.map(() => 0)
  const held = contents.map((content) => new Set(contentStems(content)))
  const weights = terms.map((term) => {
    const holders = held.reduce((count, stems) => count + (stems.has(term) ? 1 : 0), 0)
    return termWeight(term) / Math.max(1, holders)
  })
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  return held.map((stems) => terms.reduce((sum, term, i) => sum + (stems.has(term) ? weights[i]! : 0), 0) / total)
}

/** Longer words are rarer and say more about the topic (with the holders count, a corpus-free stand-in for IDF). */
function termWeight(term: string): number {
  return Math.min(12, Math.max(2, term.length))
}
