export type { SearchIndexPort } from './search-port.js'
export type { PassageInput, PassageListQuery, PassageRecord, PassageSubtype, ReplacePassagesInput, SearchHit, SearchQuery, SearchUsage } from './types.js'
