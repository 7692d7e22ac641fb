import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import type { ReadContext } from './format-reader.js'
import { pdfBlocks, type PdfLine } from './pdf-layout.js'

interface TextItemLike {
  str?: string
  transform?: number[]
  height?: number
  hasEOL?: boolean
}

let pdfjsLoaded: Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> | undefined

/**
 * pdf.js, loaded on first use (in the extraction worker only). Its own worker is replaced by its message handler
 * running in this thread, so parsing never starts a thread of its own.
 *
 * @example
 * ```ts
 * const pdfjs = await loadPdfjs()
 * const document = await pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false }).promise
 * ```
 */
export function loadPdfjs(): Promise<typeof import('pdfjs-dist/legacy/build/pdf.mjs')> {
  pdfjsLoaded ??= (async () => {
    // The worker build ships no type declarations; only its WorkerMessageHandler export is used, by pdf.js itself.
    const workerBuild = 'pdfjs-dist/legacy/build/pdf.worker.mjs'
    const worker: unknown = await import(workerBuild)
    ;(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker
    return import('pdfjs-dist/legacy/build/pdf.mjs')
  })()
  return pdfjsLoaded
}

/** A PDF opened by pdf.js. */
export type PdfDocument = Awaited<ReturnType<Awaited<ReturnType<typeof loadPdfjs>>['getDocument']>['promise']>

/**
 * Opens a PDF as botshelf reads every PDF with pdf.js: no eval, no font loading, no network, no thread of its own,
 * nothing fetched later. A password-protected PDF is `UNSUPPORTED_FORMAT` (`protectedWhy` ends the message: what
 * cannot be done with it), anything else pdf.js cannot open `CORRUPT_DOCUMENT`. `extra` adds options (the standard
 * fonts' folder, for rendering).
 *
 * @example
 * ```ts
 * const document = await openPdfDocument(bytes, 'guide.pdf', 'which cannot be indexed')
 * ```
 */
export async function openPdfDocument(bytes: Uint8Array, key: string, protectedWhy: string, extra: { standardFontDataUrl?: string } = {}): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs()
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    verbosity: 0,
    ...extra,
  })
  try {
    return await task.promise
  } catch (error) {
    if ((error as Error).name === 'PasswordException') throw new ExtractionError('UNSUPPORTED_FORMAT', `${key} is a password-protected PDF, ${protectedWhy}`)
    throw new ExtractionError('CORRUPT_DOCUMENT', `${key} could not be read as a PDF: ${(error as Error).message}`)
  }
}

/**
 * PDF: the text of every page with its page number, read with pdf.js (no eval, no font loading, no network, no
 * thread of its own); lines are grouped into headings (by font size) and paragraphs (by vertical gaps), see
 * `pdfBlocks`. Pictures are not read (no OCR), so a scanned PDF has no text. More pages than `limits.maxPages` is
 * `TOO_MANY_PAGES`, checked before any page is read; an encrypted PDF is `UNSUPPORTED_FORMAT`.
 *
 * @example
 * ```ts
 * await readPdf(bytes, context) // [{ kind: 'page', pageNumber: 1, ... }, { kind: 'heading', ... }, ...]
 * ```
 */
export async function readPdf(bytes: Uint8Array, context: ReadContext): Promise<DocumentBlock[]> {
  const { key, limits } = context
  const document = await openPdfDocument(bytes, key, 'which cannot be indexed')
  try {
    if (document.numPages > limits.maxPages) {
      throw new ExtractionError('TOO_MANY_PAGES', `${key} has ${document.numPages} pages, more than the ${limits.maxPages} allowed`)
    }
    const pages: PdfLine[][] = []
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number)
      const content = await page.getTextContent()
      pages.push(linesOf(content.items as TextItemLike[]))
      page.cleanup()
    }
    return pdfBlocks(pages)
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError('CORRUPT_DOCUMENT', `${key} could not be read as a PDF: ${(error as Error).message}`)
  } finally {
    await document.destroy()
  }
}

/** Text items in content order grouped into lines: a new line at an end-of-line mark or a change of baseline. */
function linesOf(items: TextItemLike[]): PdfLine[] {
  const lines: PdfLine[] = []
  let current: PdfLine | undefined
  for (const item of items) {
    const text = item.str ?? ''
    const transform = item.transform ?? [0, 0, 0, 0, 0, 0]
    const size = Math.hypot(transform[2] ?? 0, transform[3] ?? 0) || item.height || 0
    const y = transform[5] ?? 0
    if (text !== '') {
      if (current && Math.abs(current.y - y) > Math.max(current.size, size) * 0.5) {
        lines.push(current)
        current = undefined
      }
      if (current) {
        current.text += text
        current.size = Math.max(current.size, size)
      } else current = { text, size, y }
    }
    if (item.hasEOL && current) {
      lines.push(current)
      current = undefined
    }
  }
  if (current) lines.push(current)
  return lines
}
