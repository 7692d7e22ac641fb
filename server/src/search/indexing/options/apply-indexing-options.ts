import type { DocumentFormat } from '../../extraction/index.js'
import type { LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'
import type { FileIndexingOptions } from './file-indexing-options.js'
import type { IndexingNotes } from './indexing-notes.js'
import { mergeShortParagraphs } from './merge-short-paragraphs.js'
import { cleanUpWithModel } from './model-cleanup.js'
import { modelRefusal } from './model-refusal.js'
import { applyPageVision, type PdfPageRenderer } from './page-vision.js'
import { summarizeDocument } from './summaries.js'

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
  /** The document's bytes, for `vision` on a PDF (its pages are rendered). */
  content?: Uint8Array
  /** Renders PDF pages for `vision`; `renderPdfPages` (the extraction worker) when absent. */
  renderPages?: PdfPageRenderer
}

/**
 * Applies a file's indexing options to its extracted passages (decision 1435), in order: `minimumParagraphLength`
 * (no model needed), the model cleanup (`parsing.mode: 'agent'` for any format, `smartCleanup` for PDFs), `vision`
 * on a PDF (pages transcribed or described from their rendered images, decision 1481), then `summarization`
 * (summary passages appended). A step the model cannot do (none configured, or it refuses) is left out and noted;
 * an unavailable model throws, so the file stays pending and is indexed when the model is back. Options for another
 * format than theirs are ignored, as the wire documents.
 *
 * @example
 * ```ts
 * const notes = new IndexingNotes()
 * const passages = await applyIndexingOptions(extracted, { options, format: 'pdf', key, model: services.languageModel, signal, notes, content })
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
  if ((options.transcribePages || options.indexPages) && input.format === 'pdf' && input.content) {
    try {
      out = await applyPageVision(out, {
        transcribePages: options.transcribePages,
        indexPages: options.indexPages,
        content: input.content,
        key: input.key,
        model: input.model,
        signal: input.signal,
        maximumChunkLength: options.maximumChunkLength,
        notes,
        ...(input.renderPages ? { render: input.renderPages } : {}),
      })
    } catch (error) {
      const why = modelRefusal(error)
      if (!why) throw error
      notes.notApplied('vision', why)
    }
  }
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
