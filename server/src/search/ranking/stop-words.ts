/**
 * English function words: they carry grammar, not topic. The offline embedder gives them no weight, and the
 * retrieval-quality set uses the same list to prove its paraphrase questions share no *content* word with their
 * passage. Lowercase, without diacritics, split the way `wordsOf` splits ("don't" → "don", "t").
 *
 * @example
 * ```ts
 * STOP_WORDS.has('the') // true
 * STOP_WORDS.has('refund') // false
 * ```
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are aren as at be because been before being below between both but by ' +
    'can cannot could couldn d did didn do does doesn doing don down during each either else ever every few for from further ' +
    'had hadn has hasn have haven having he her here hers herself him himself his how however i if in into is isn it its itself ' +
    'just ll m me might more most must mustn my myself neither no nor not now o of off on once only or other ought our ours ' +
    'ourselves out over own re s same shall shan she should shouldn so some such t than that the their theirs them themselves ' +
    'then there these they this those through to too under until up upon us ve very was wasn we were weren what whatever when ' +
    'whenever where whereas wherever whether which while who whoever whom whose why will with within without won would wouldn ' +
    'y yet you your yours yourself yourselves one ones get gets got let lets like many much may via etc e g ie eg'
  ).split(' '),
)
