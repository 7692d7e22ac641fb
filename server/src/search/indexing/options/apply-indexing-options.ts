import type { DocumentFormat } from '../../extraction/index.js'
import type { LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'
import type { FileIndexingOptions } from './file-indexing-options.js'
import type { IndexingNotes } from './indexing-notes.js'
import { mergeShortParagraphs } from './merge-short-paragraphs.js'
import { cleanUpWithModel } from './model-cleanup.js'
import { modelRefusal } from './model-refusal.js'
import { summarizeDocument } from './summaries.js'

/** Why `vision` page options are not applied to a PDF. */
export const NO_PAGE_RENDERING = 'botshelf does not render PDF pages to images; the pages were indexed from their text'

/** What {@link applyIndexingOptions} needs besides the passages. */
export interface ApplyIndexingOptionsInput {
  options: FileIndexingOptions
  /** The document's format (options such as `smartCleanup` concern PDFs only). */
  format: DocumentFormat | undefined
  key: string
  model: LanguageModel
  signal: AbortSignal
  /** Receives the options that were asked and not applied, with the reason. */
  notes: IndexingNotes
}

/**
 * Applies a file's indexing options to its extracted passages (decision 1435), in order: `minimumParagraphLength`
 * (no model needed), the model cleanup (`parsing.mode: 'agent'` for any format, `smartCleanup` for PDFs), then
 * `summarization` (summary passages appended). A step the model cannot do (none configured, or it refuses) is left
 * out and noted; an unavailable model throws, so the file stays pending and is indexed when the model is back.
 * `vision` page options on a PDF are noted as not applied. Options for another format than theirs are ignored, as
 * the wire documents.
 *
 * @example
 * ```ts
 * const notes = new IndexingNotes()
 * const passages = await applyIndexingOptions(extracted, { options, format: 'pdf', key, model: services.languageModel, signal, notes })
 * ```
 */
export async function applyIndexingOptions(passages: readonly PreparedPassage[], input: ApplyIndexingOptionsInput): Promise<PreparedPassage[]> {
  const { options, notes } = input
  let out = [...passages]
  if (options.minimumParagraphLength !== undefined) out = mergeShortParagraphs(out, options.minimumParagraphLength, options.maximumChunkLength)
  const cleanup = options.mode === 'agent' ? 'parsing.mode agent' : options.smartCleanup && input.format === 'pdf' ? 'parsing.smartCleanup' : undefined
  if (cleanup) {
    try {
      out = await cleanUpWithModel(out, { model: input.model, signal: input.signal, maximumChunkLength: options.maximumChunkLength })
    } catch (error) {
      const why = modelRefusal(error)
      if (!why) throw error
      notes.notApplied(cleanup, why)
    }
  }
  if (options.pageVision && input.format === 'pdf') notes.notApplied('vision', NO_PAGE_RENDERING)
  if (options.summarize) {
    try {
      out.push(
        ...(await summarizeDocument(out, {
          model: input.model,
          signal: input.signal,
          key: input.key,
          minimumInputLength: options.minimumInputLength,
          outputTokenLimit: options.outputTokenLimit,
          master: options.masterSummary,
        })),
      )
    } catch (error) {
      const why = modelRefusal(error)
      if (!why) throw error
      notes.notApplied('summarization', why)
    }
  }
  return out
}
