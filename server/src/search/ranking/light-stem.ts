/**
 * A light English stemmer for comparing a query's words with a passage's (the evidence of the relevance score, not
 * the index's own stemming): plural, past, gerund and adverb endings come off, so "refunds", "refunded" and
 * "refunding" all read `refund`. Words of four letters or fewer are kept whole; numbers and codes pass unchanged.
 *
 * @example
 * ```ts
 * lightStem('refunding') // 'refund'
 * lightStem('policies') // 'polic', as 'policy'
 * ```
 */
export function lightStem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word
  for (const [suffix, keep] of ENDINGS) {
    if (!word.endsWith(suffix) || word.length - suffix.length < keep) continue
    // "class", "status", "analysis": an s after s, u or i belongs to the word.
    if (suffix === 's' && /[siu]s$/.test(word)) return word
    const stem = word.slice(0, word.length - suffix.length)
    return /^(ing|ed|er|ers|edly|ingly)$/.test(suffix) ? trimDouble(stem) : stem
  }
  return word
}

/** Endings removed, longest first, each with the shortest stem it may leave. */
const ENDINGS: ReadonlyArray<readonly [string, number]> = [
  ['ations', 4], ['ation', 4], ['ingly', 4], ['ments', 4], ['ment', 4], ['ness', 4], ['ings', 4], ['ies', 3], ['ing', 4],
  ['edly', 4], ['ers', 4], ['ed', 4], ['er', 4], ['ly', 4], ['es', 4], ['s', 4], ['e', 4], ['y', 4],
]

/** "stopp" (from "stopped") reads "stop", as "stop" does; a double "ss" or "ll" is part of the word and stays. */
function trimDouble(stem: string): string {
  const last = stem[stem.length - 1]
  return stem.length > 3 && last === stem[stem.length - 2] && !'slz'.includes(last!) ? stem.slice(0, -1) : stem
}
