import { chunkBlocks, normalizeInline, splitWithOverlap, type DocumentBlock } from '../../extraction/chunking/index.js'
import { PAGE_RENDER_LIMITS, renderPdfPages, type RenderedPage, type RenderedPdfPages } from '../../extraction/index.js'
import { unconfiguredLanguageModel, type LanguageModel } from '../../../language-model/index.js'
import type { PreparedPassage } from '../given-passages.js'
import type { IndexingNotes } from './indexing-notes.js'
import { NO_LANGUAGE_MODEL } from './model-refusal.js'

/** Pages asked by `vision.transcribePages` or `vision.indexPages`: `true` for every page, else page numbers. */
export type PageSelection = true | readonly number[]

/** Renders pages of a PDF to PNG images: `renderPdfPages` by default (the extraction worker). */
export type PdfPageRenderer = (doc: { content: Uint8Array; key: string }, options: { pages: PageSelection; maxPages: number; signal?: AbortSignal }) => Promise<RenderedPdfPages>

/** What {@link applyPageVision} needs besides the passages. */
export interface PageVisionInput {
  /** `vision.transcribePages`: the model's transcription of these pages replaces their extracted passages. */
  transcribePages?: PageSelection | undefined
  /** `vision.indexPages`: each of these pages gets an `image`/`page` passage, the model's description of it. */
  indexPages?: PageSelection | undefined
  /** The PDF's bytes. */
  content: Uint8Array
  key: string
  model: LanguageModel
  signal: AbortSignal
  maximumChunkLength: number
  /** Receives the pages (or the whole option) not applied, with the reason. */
  notes: IndexingNotes
  /** Renders the pages; `renderPdfPages` when absent. */
  render?: PdfPageRenderer
  /** The most pages read as images; `PAGE_RENDER_LIMITS.maxPages` (100) when absent. */
  maxPages?: number
}

/** Most tokens of one page's transcription (a dense page of text is 1,000 to 2,000). */
const TRANSCRIPTION_TOKENS = 4096
/** Most tokens of one page's description. */
const DESCRIPTION_TOKENS = 1000

const TRANSCRIBE =
  'You transcribe pages of documents for a search index. Write out all the text on the page image in reading ' +
  'order, exactly as written and in its language: headings, paragraphs, lists, table rows (one row per line, cells ' +
  'separated by " | "), captions and the text inside figures. Separate paragraphs with a blank line. Add nothing, ' +
  'leave nothing out, and answer with the transcription alone; answer nothing if the page has no text.'

const DESCRIBE =
  'You write what a page of a document shows, for a search index: its figures, charts, tables, diagrams and photos ' +
  'and what they show, the data, names and terms on it that someone might search for. Answer with the description alone.'

/** Page numbers as short text: `3, 5-9, 12`. */
function pageList(pages: readonly number[]): string {
  const parts: string[] = []
  for (let index = 0; index < pages.length; ) {
    let end = index
    while (end + 1 < pages.length && pages[end + 1] === pages[end]! + 1) end++
    parts.push(end === index ? `${pages[index]}` : `${pages[index]}-${pages[end]}`)
    index = end + 1
  }
  return parts.join(', ')
}

const onPages = (pages: readonly number[]) => `vision of page${pages.length > 1 ? 's' : ''} ${pageList(pages)}`

function asked(selection: PageSelection | undefined, page: number): boolean {
  return selection === true || (selection !== undefined && selection.includes(page))
}

/** The union of both selections, for one rendering: `true` if either asks every page. */
function union(a: PageSelection | undefined, b: PageSelection | undefined): PageSelection {
  if (a === true || b === true) return true
  return [...new Set([...(a ?? []), ...(b ?? [])])]
}

async function askAboutPage(page: RenderedPage, instructions: string, question: string, maxTokens: number, input: PageVisionInput): Promise<string> {
  const url = `data:image/png;base64,${Buffer.from(page.png.buffer, page.png.byteOffset, page.png.byteLength).toString('base64')}`
  const answer = await input.model.complete({
    messages: [
      { role: 'system', content: instructions },
      {
        role: 'user',
        content: [
          { type: 'text', text: question },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ],
    maxTokens,
    temperature: 0,
    signal: input.signal,
  })
  return answer.text.trim()
}

/** A page's transcription as passages of at most `maximumChunkLength`: one paragraph per blank-line-separated block. */
function transcriptionPassages(text: string, pageNumber: number, breadcrumb: string[], input: PageVisionInput): PreparedPassage[] {
  const blocks: DocumentBlock[] = [{ kind: 'page', pageNumber, resetHeadings: false }]
  for (const paragraph of text.split(/\n\s*\n/)) if (paragraph.trim()) blocks.push({ kind: 'paragraph', text: paragraph })
  const chunks = chunkBlocks(blocks, { maximumChunkLength: input.maximumChunkLength, maxOutputChars: Number.MAX_SAFE_INTEGER, key: input.key })
  return chunks.map((chunk) => ({ content: chunk.content, subtype: chunk.meta.subtype, pageNumber, breadcrumb }))
}

/** The breadcrumb a page's new passages sit under: that of the page's first passage, else of the last one before it. */
function breadcrumbOfPage(passages: readonly PreparedPassage[], pageNumber: number): string[] {
  let before: string[] = []
  for (const passage of passages) {
    if (passage.pageNumber === undefined) continue
    if (passage.pageNumber === pageNumber) return passage.breadcrumb
    if (passage.pageNumber > pageNumber) break
    before = passage.breadcrumb
  }
  return before
}

/** Asks the model about each rendered page, as its options say; the answers go to `transcribed` and `described`. */
async function readPages(
  pages: readonly RenderedPage[],
  passages: readonly PreparedPassage[],
  input: PageVisionInput,
  transcribed: Map<number, PreparedPassage[]>,
  described: Map<number, PreparedPassage[]>,
): Promise<void> {
  const { transcribePages, indexPages } = input
  for (const page of pages) {
    const breadcrumb = breadcrumbOfPage(passages, page.pageNumber)
    if (asked(transcribePages, page.pageNumber)) {
      const text = await askAboutPage(page, TRANSCRIBE, `Transcribe page ${page.pageNumber} of the document "${input.key}".`, TRANSCRIPTION_TOKENS, input)
      if (text) transcribed.set(page.pageNumber, transcriptionPassages(text, page.pageNumber, breadcrumb, input))
    }
    if (asked(indexPages, page.pageNumber)) {
      const text = normalizeInline(await askAboutPage(page, DESCRIBE, `What does page ${page.pageNumber} of the document "${input.key}" show?`, DESCRIPTION_TOKENS, input))
      if (text) {
        const pieces = splitWithOverlap(text, input.maximumChunkLength)
        described.set(page.pageNumber, pieces.map((content) => ({ content, type: 'image', subtype: 'page', pageNumber: page.pageNumber, breadcrumb })))
      }
    }
  }
}

/**
 * `vision.transcribePages` and `vision.indexPages` on a PDF (decision 1481): the asked pages (both options share the
 * rendering, `PAGE_RENDER_LIMITS.batchPages` pages at a time, the first `PAGE_RENDER_LIMITS.maxPages` of them; pages
 * the document does not have are skipped) are rendered to PNG and sent to the language model as `data:` URLs. A transcribed page's extracted passages are replaced by the
 * model's transcription, chunked to `maximumChunkLength` (an empty transcription leaves the page as extracted); an
 * indexed page gets a `type: 'image'`, `subtype: 'page'` passage with the model's description of it, after the
 * page's text. Without a model, or when the pages cannot be rendered, the passages are returned as they are and the
 * notes say why; pages skipped are noted. Throws the model's errors (a refusal or an outage) for the caller to note
 * or to wait on.
 *
 * @example
 * ```ts
 * const passages = await applyPageVision(extracted, { indexPages: [1], content, key: 'scan.pdf', model, signal, maximumChunkLength: 1000, notes })
 * passages.at(-1) // { content: 'A bar chart of ...', type: 'image', subtype: 'page', pageNumber: 1, breadcrumb: [] }
 * ```
 */
export async function applyPageVision(passages: readonly PreparedPassage[], input: PageVisionInput): Promise<PreparedPassage[]> {
  const { transcribePages, indexPages, notes } = input
  if (transcribePages === undefined && indexPages === undefined) return [...passages]
  // Rendering pages no model will read is wasted work: a server without a model notes it at once.
  if (input.model === unconfiguredLanguageModel) {
    notes.notApplied('vision', NO_LANGUAGE_MODEL)
    return [...passages]
  }
  const render = input.render ?? renderPdfPages
  const transcribed = new Map<number, PreparedPassage[]>()
  const described = new Map<number, PreparedPassage[]>()
  // Pages are rendered a batch at a time (the images held at once), up to the cap of pages per file.
  let pending: PageSelection = union(transcribePages, indexPages)
  const maxPages = input.maxPages ?? PAGE_RENDER_LIMITS.maxPages
  let budget = maxPages
  let pageCount = 0
  let overCap: number[] = []
  while (pending === true || pending.length > 0) {
    let batch: RenderedPdfPages
    try {
      batch = await render({ content: input.content, key: input.key }, { pages: pending, maxPages: Math.min(budget, PAGE_RENDER_LIMITS.batchPages), signal: input.signal })
    } catch (error) {
      if (input.signal.aborted || !(error instanceof Error) || error.name !== 'ExtractionError') throw error
      notes.notApplied('vision', `the PDF pages could not be rendered to images: ${error.message}`)
      return [...passages]
    }
    pageCount = batch.pageCount
    await readPages(batch.pages, passages, input, transcribed, described)
    budget -= batch.pages.length
    if (budget > 0 && batch.pages.length > 0) pending = batch.overCap
    else {
      overCap = batch.overCap
      break
    }
  }
  // Noted only once the pages were read: a model that refused leaves the whole option noted instead.
  const listed = [...(transcribePages === true ? [] : (transcribePages ?? [])), ...(indexPages === true ? [] : (indexPages ?? []))]
  const beyond = [...new Set(listed)].filter((page) => page > pageCount || page < 1).sort((a, b) => a - b)
  if (beyond.length > 0) notes.notApplied(onPages(beyond), `the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`)
  if (overCap.length > 0) notes.notApplied(onPages(overCap), `at most the first ${maxPages} pages asked of a file are read as images`)

  // The page's own passages (unless transcribed), then its transcription, then its description; pages in order.
  const additions = [...new Set([...transcribed.keys(), ...described.keys()])].sort((a, b) => a - b)
  const out: PreparedPassage[] = []
  const flush = (beforePage: number) => {
    while (additions.length > 0 && additions[0]! < beforePage) {
      const page = additions.shift()!
      out.push(...(transcribed.get(page) ?? []), ...(described.get(page) ?? []))
    }
  }
  for (const passage of passages) {
    if (passage.pageNumber !== undefined) {
      flush(passage.pageNumber)
      if (transcribed.has(passage.pageNumber)) continue
    }
    out.push(passage)
  }
  flush(Number.POSITIVE_INFINITY)
  return out
}
