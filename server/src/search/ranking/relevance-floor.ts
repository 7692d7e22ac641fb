/**
 * The server's default relevance floor: passages scoring under it are not returned (decision 1432). Chosen on the
 * labelled set and the off-topic queries (`npm run bench:calibration`): at 0.05, 20 of 24 off-topic queries return
 * nothing, exact rare-term matches all stay, and it keeps the best balance of labelled answers kept and off-topic
 * queries left empty; `botshelf serve --search-min-score` changes it per deployment.
 *
 * @example
 * ```ts
 * createApp({ search: { minScore: DEFAULT_RELEVANCE_FLOOR } })
 * ```
 */
export const DEFAULT_RELEVANCE_FLOOR = 0.05
