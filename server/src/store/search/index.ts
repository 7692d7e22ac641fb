export type { SearchIndexPort } from './search-port.js'
export type { PassageInput, PassageListQuery, PassageRecord, PassageSubtype, PassageVectorsInput, StoredPassageType, ReplacePassagesInput, SearchHit, SearchQuery, SearchUsage, StaleFile } from './types.js'
export {
  assignLists,
  estimateRecall,
  listCountFor,
  nearestList,
  probeCandidates,
  probeCountFor,
  rankLists,
  recallByProbes,
  trainLists,
  VECTOR_LISTS_DEFAULTS,
  type EstimateRecallOptions,
  type RecallByProbesOptions,
  type TrainListsOptions,
  type VectorListsSettings,
} from './vector-lists.js'
export { passageRowToRecord, type PassageRow } from './passage-row.js'
