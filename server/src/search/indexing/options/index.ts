// The indexing options of a file (`indexing.configuration`, decision 1435): what the indexing job applies to its passages.
export { applyIndexingOptions, NO_PAGE_RENDERING, type ApplyIndexingOptionsInput } from './apply-indexing-options.js'
export { fileIndexingOptions, DEFAULT_MINIMUM_INPUT_LENGTH, DEFAULT_OUTPUT_TOKEN_LIMIT, type FileIndexingOptions } from './file-indexing-options.js'
export { IndexingNotes } from './indexing-notes.js'
export { mergeShortParagraphs } from './merge-short-paragraphs.js'
export { cleanUpWithModel, CLEANUP_LIMITS } from './model-cleanup.js'
export { modelRefusal, NO_LANGUAGE_MODEL } from './model-refusal.js'
export { summarizeDocument, documentSections, SUMMARY_INPUT_LIMIT, type DocumentSection, type SummarizeOptions } from './summaries.js'
export { captionImage, imageType, IMAGE_CAPTION_MAX_BYTES } from './image-caption.js'
