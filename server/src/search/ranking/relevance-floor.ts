/**
 * The server's default relevance floor: passages scoring under it are not returned (decisions 1432, 1434). Chosen on
 * the labelled set and the off-topic queries (`npm run bench:calibration`): with the model of decision 1434, at 0.15
 * 20 of 24 off-topic queries return nothing (as 0.05 did with the earlier model), 27 of 203 answerable questions are
 * left empty (33 before), and exact rare-term matches all stay; `botshelf serve --search-min-score` changes it per
 * deployment.
 *
 * @example
 * ```ts
 * createApp({ search: { minScore: DEFAULT_RELEVANCE_FLOOR } })
 * ```
 */
export const DEFAULT_RELEVANCE_FLOOR = 0.15
