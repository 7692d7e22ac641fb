// Row vectors of table search: the text a row is embedded from, the hybrid ranking of a table search and how its
// page is read, and the shapes the tables port uses to claim stale rows and write their vectors back (decision 0860).
export { searchableText } from './searchable-text.js'
export { rankTableSearch, TABLE_SEARCH_CANDIDATES, type RankedRow } from './hybrid-ranking.js'
export { arrangeHybridRows, lexicalDepth, planHybridFetch, type HybridFetch } from './hybrid-fetch.js'
export type { ClaimStaleRowsInput, QueryVector, RowVectorCounts, SetRowVectorsInput, StaleRowsClaim } from './types.js'
