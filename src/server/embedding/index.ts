// What the service's search routes share about embedders: embedding a query with a time limit and a lexical fallback.
export { embedQuery, QUERY_EMBED_TIMEOUT_MS } from './embed-query.js'
