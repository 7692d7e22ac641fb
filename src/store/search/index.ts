export type { SearchIndexPort } from './search-port.js'
export type { PassageInput, PassageListQuery, PassageRecord, PassageSubtype, PassageVectorsInput, ReplacePassagesInput, SearchHit, SearchQuery, SearchUsage, StaleFile } from './types.js'
