import type { IndexingConfiguration } from 'botshelf/api'

/**
 * The indexing options a file was upserted with (`indexing.configuration`), with botshelf's defaults filled in: what
 * the indexing job applies (decision 1435). The wire validated the values when the file was upserted.
 *
 * @example
 * ```ts
 * const options = fileIndexingOptions(file.indexingConfiguration) // { summarize: false, ... }
 * ```
 */
export interface FileIndexingOptions {
  maximumChunkLength: number
  /** `parsing.mode`: `agent` asks the language model to clean up every passage; `standard` (default) does not. */
  mode: 'agent' | 'standard'
  /** `parsing.smartCleanup`: the language model cleans up the passages of a PDF. */
  smartCleanup: boolean
  /** `parsing.minimumParagraphLength`: a shorter paragraph is merged with the next one; absent: no merging. */
  minimumParagraphLength?: number
  /** `summarization.enable`: a `summary` passage per section long enough. */
  summarize: boolean
  /** `summarization.minimumInputLength` (default 1000 characters): the shortest section summarized. */
  minimumInputLength: number
  /** `summarization.outputTokenLimit` (default 1000): the most tokens of one summary. */
  outputTokenLimit: number
  /** `summarization.generateMasterSummary`: with `summarize`, one more summary of the whole document. */
  masterSummary: boolean
  /** `chunking.embedBreadcrumb` (default `true`): each passage is embedded under its headings (decision 1458). */
  embedBreadcrumb: boolean
  /** `chunking.embeddedContextLevels` (0 to 3, default 0): neighbours of the same section embedded with each passage. */
  embeddedContextLevels: number
  /** `vision.transcribePages` (PDF): `true` for every page, or page numbers; absent when not asked. */
  transcribePages?: true | number[]
  /** `vision.indexPages` (PDF): `true` for every page, or page numbers; absent when not asked. */
  indexPages?: true | number[]
}

/** Default `summarization.minimumInputLength`, in characters (the wire's lowest value). */
export const DEFAULT_MINIMUM_INPUT_LENGTH = 1000
/** Default `summarization.outputTokenLimit`, in tokens (the wire's lowest value). */
export const DEFAULT_OUTPUT_TOKEN_LIMIT = 1000

/** A page selection as the job applies it: `true`, or page numbers (none, `false` and `[]` are not asking). */
function pages(value: boolean | number[] | undefined): true | number[] | undefined {
  if (value === true) return true
  return Array.isArray(value) && value.length > 0 ? value : undefined
}

/**
 * Reads a file's stored `indexing.configuration` into the options the job applies.
 *
 * @example
 * ```ts
 * fileIndexingOptions({ summarization: { enable: true } }, 1000).summarize // true
 * ```
 */
export function fileIndexingOptions(configuration: Record<string, unknown> | null | undefined, defaultChunkLength: number): FileIndexingOptions {
  const config = (configuration ?? {}) as IndexingConfiguration
  const summarization = config.summarization ?? {}
  const options: FileIndexingOptions = {
    maximumChunkLength: config.chunking?.maximumChunkLength ?? defaultChunkLength,
    mode: config.parsing?.mode ?? 'standard',
    smartCleanup: config.parsing?.smartCleanup === true,
    ...(config.parsing?.minimumParagraphLength !== undefined ? { minimumParagraphLength: config.parsing.minimumParagraphLength } : {}),
    summarize: summarization.enable === true,
    minimumInputLength: summarization.minimumInputLength ?? DEFAULT_MINIMUM_INPUT_LENGTH,
    outputTokenLimit: summarization.outputTokenLimit ?? DEFAULT_OUTPUT_TOKEN_LIMIT,
    masterSummary: summarization.enable === true && summarization.generateMasterSummary === true,
    // On unless turned off: measured on the labelled set, it is the better vector (decision 1458).
    embedBreadcrumb: config.chunking?.embedBreadcrumb !== false,
    embeddedContextLevels: config.chunking?.embeddedContextLevels ?? 0,
  }
  const transcribePages = pages(config.vision?.transcribePages)
  const indexPages = pages(config.vision?.indexPages)
  return { ...options, ...(transcribePages ? { transcribePages } : {}), ...(indexPages ? { indexPages } : {}) }
}
