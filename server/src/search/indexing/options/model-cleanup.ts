import type { LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'

/** What the cleanup reads at most: the first 30 pages and 20 KB of text (the rest is indexed as extracted). */
export const CLEANUP_LIMITS = { pages: 30, characters: 20 * 1024 } as const

/** Subtypes whose text the model may clean; headings, tables and code stay as extracted. */
const CLEANABLE = new Set(['paragraph', 'list', 'blockquote'])

const INSTRUCTIONS =
  'You repair text extracted from a document for a search index. Join words and sentences broken across lines, ' +
  'fix characters garbled by extraction, and drop stray running headers, footers and page numbers. Keep every fact, ' +
  'number and name, keep the language, add nothing, and answer with the repaired text alone.'

/**
 * `parsing.smartCleanup` (PDFs) and `parsing.mode: 'agent'` (any format): asks the language model to repair each
 * passage of running text, within {@link CLEANUP_LIMITS}. A repaired text that is empty or longer than
 * `maximumChunkLength` is not taken (the passage stays as extracted). Throws the model's errors: the caller decides
 * whether the option is noted as not applied or the file waits for the model.
 *
 * @example
 * ```ts
 * const cleaned = await cleanUpWithModel(passages, { model: services.languageModel, signal, maximumChunkLength: 1000 })
 * ```
 */
export async function cleanUpWithModel(
  passages: readonly PreparedPassage[],
  options: { model: LanguageModel; signal: AbortSignal; maximumChunkLength: number },
): Promise<PreparedPassage[]> {
  let budget: number = CLEANUP_LIMITS.characters
  const out: PreparedPassage[] = []
  for (const passage of passages) {
    const inReach = (passage.pageNumber ?? 1) <= CLEANUP_LIMITS.pages && passage.content.length <= budget
    if (!CLEANABLE.has(passage.subtype) || !inReach) {
      out.push(passage)
      continue
    }
    budget -= passage.content.length
    const answer = await options.model.complete({
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: passage.content },
      ],
      temperature: 0,
      signal: options.signal,
    })
    const repaired = answer.text.trim()
    out.push(repaired && repaired.length <= options.maximumChunkLength ? { ...passage, content: repaired } : passage)
  }
  return out
}
