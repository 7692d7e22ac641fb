import type { LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'

/** The most characters of one section (or document) sent to be summarized; the rest of it is left out of the summary. */
export const SUMMARY_INPUT_LIMIT = 48_000

/** A part of a document that gets its own summary: from one title to the next. */
export interface DocumentSection {
  /** The headings the summary passage sits under (the section's title), empty before the first title. */
  breadcrumb: string[]
  pageNumber?: number
  text: string
}

/**
 * Cuts a document's passages into sections at every `title` (level-1 heading); the text before the first title, if
 * any, is a section of its own.
 *
 * @example
 * ```ts
 * documentSections([{ content: '# Guide', subtype: 'title', breadcrumb: [] }, { content: 'Step one', subtype: 'paragraph', breadcrumb: ['Guide'] }])
 * // [{ breadcrumb: ['Guide'], text: '# Guide\n\nStep one' }]
 * ```
 */
export function documentSections(passages: readonly PreparedPassage[]): DocumentSection[] {
  const sections: Array<DocumentSection & { parts: string[] }> = []
  for (const passage of passages) {
    let section = sections.at(-1)
    if (!section || passage.subtype === 'title') {
      const heading = passage.subtype === 'title' ? [passage.content.replace(/^#+\s*/, '').trim()] : []
      section = { breadcrumb: heading, ...(passage.pageNumber !== undefined ? { pageNumber: passage.pageNumber } : {}), text: '', parts: [] }
      sections.push(section)
    }
    section.parts.push(passage.content)
  }
  return sections.map(({ parts, ...section }) => ({ ...section, text: parts.join('\n\n') }))
}

/** Options of {@link summarizeDocument}. */
export interface SummarizeOptions {
  model: LanguageModel
  signal: AbortSignal
  /** The file's key, named to the model so it knows what it reads. */
  key: string
  /** The shortest section summarized, in characters (`summarization.minimumInputLength`). */
  minimumInputLength: number
  /** The most tokens of one summary (`summarization.outputTokenLimit`). */
  outputTokenLimit: number
  /** One more summary of the whole document (`summarization.generateMasterSummary`). */
  master: boolean
}

async function summary(text: string, what: string, options: SummarizeOptions): Promise<string> {
  const answer = await options.model.complete({
    messages: [
      {
        role: 'system',
        content:
          'You write summaries that a search index stores beside a document, so that questions about it find it. ' +
          'Write a faithful, self-contained summary in the language of the text: its subject, its main points, and the names, ' +
          'numbers and terms a reader would search for. Answer with the summary alone.',
      },
      { role: 'user', content: `Summarize ${what} of the document "${options.key}":\n\n${text.slice(0, SUMMARY_INPUT_LIMIT)}` },
    ],
    maxTokens: options.outputTokenLimit,
    temperature: 0,
    signal: options.signal,
  })
  return answer.text.trim()
}

/**
 * `summarization`: one `summary` passage per section at least `minimumInputLength` characters long, and with `master`
 * one for the whole document (unless its one section was summarized already: that summary is the document's).
 * Summaries come after the document's own passages, under their section's title. Throws the model's errors.
 *
 * @example
 * ```ts
 * const summaries = await summarizeDocument(passages, { model, signal, key: 'guide.pdf', minimumInputLength: 1000, outputTokenLimit: 1000, master: true })
 * ```
 */
export async function summarizeDocument(passages: readonly PreparedPassage[], options: SummarizeOptions): Promise<PreparedPassage[]> {
  const sections = documentSections(passages)
  const out: PreparedPassage[] = []
  const add = (content: string, section: Omit<DocumentSection, 'text'>) => {
    if (content) out.push({ content, type: 'summary', subtype: 'paragraph', breadcrumb: section.breadcrumb, ...(section.pageNumber !== undefined ? { pageNumber: section.pageNumber } : {}) })
  }
  const long = sections.filter((section) => section.text.length >= options.minimumInputLength)
  if (options.master && !(sections.length === 1 && long.length === 1)) {
    const whole = sections.map((section) => section.text).join('\n\n')
    add(await summary(whole, 'the whole', options), { breadcrumb: [] })
  }
  for (const section of long) {
    add(await summary(section.text, section.breadcrumb.length > 0 ? `the section "${section.breadcrumb[0]}"` : sections.length > 1 ? 'the opening' : 'the whole', options), section)
  }
  return out
}
