/**
 * Turning documents into passages for search: format detection, extraction per format in worker threads under
 * limits, and structure-following chunking. The indexing job calls `extractPassages`; `setFilePassages` calls
 * `setPassagesFromWire`.
 */
export type { PassageMeta, PassageSubtype, ExtractedPassage } from './passage.js'
export { ExtractionError, type ExtractionErrorCode } from './extraction-error.js'
export { DEFAULT_EXTRACTION_LIMITS, resolveLimits, type ExtractionLimits } from './limits.js'
export { formatBy, indexableFormat, type DocumentFormat } from './formats.js'
export { extractPassages, closeExtractionWorkers, configureExtractionWorkers, renderPdfPages, PAGE_RENDER_LIMITS, type ExtractOptions } from './extract-passages.js'
export type { RenderedPage, RenderedPdfPages } from './formats/pdf-pages.js'
export { setPassagesFromWire, type WirePassage } from './set-passages-from-wire.js'
export { DEFAULT_MAXIMUM_CHUNK_LENGTH, MAXIMUM_CHUNK_LENGTH_RANGE } from './chunking/chunk-options.js'
export { OVERLAP_RATIO } from './chunking/split-text.js'
export type { DocumentInput } from './extract-document.js'
export { ExtractionWorkerPool } from './worker/worker-pool.js'
