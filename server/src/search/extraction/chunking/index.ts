/** Blocks → passages: the block model, the chunker and its pieces. */
export type { DocumentBlock, TableBlock } from './document-block.js'
export { chunkBlocks, type ChunkOptions } from './chunk-blocks.js'
export { DEFAULT_MAXIMUM_CHUNK_LENGTH, MAXIMUM_CHUNK_LENGTH_RANGE, resolveMaximumChunkLength } from './chunk-options.js'
export { normalizeCode, normalizeInline } from './normalize-whitespace.js'
export { renderTable, type RenderedTable } from './render-table.js'
export { splitSentences } from './split-sentences.js'
export { hardSlices, OVERLAP_RATIO, splitWithOverlap } from './split-text.js'
