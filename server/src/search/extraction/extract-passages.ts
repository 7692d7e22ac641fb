import { resolveMaximumChunkLength } from './chunking/chunk-options.js'
import { type DocumentInput, precheckDocument } from './extract-document.js'
import { ExtractionError } from './extraction-error.js'
import type { RenderedPdfPages } from './formats/pdf-pages.js'
import { type ExtractionLimits, resolveLimits } from './limits.js'
import type { ExtractedPassage } from './passage.js'
import { ExtractionWorkerPool } from './worker/worker-pool.js'

/** Options of `extractPassages`. */
export interface ExtractOptions {
  /** Longest passage in characters, 100..5000 (the wire's `indexing.configuration.chunking`), e.g. `{ maximumChunkLength: 1000 }` (the default). */
  maximumChunkLength?: number
  /** Stops the extraction (its worker thread is terminated) with `ABORTED`, e.g. `{ signal: AbortSignal.timeout(5000) }`. */
  signal?: AbortSignal
  /** Overrides of `DEFAULT_EXTRACTION_LIMITS`, e.g. `{ limits: { timeMs: 10_000, maxPages: 500 } }`. */
  limits?: Partial<ExtractionLimits>
}

let pool: ExtractionWorkerPool | undefined
let poolSize = 1

function sharedPool(): ExtractionWorkerPool {
  pool ??= new ExtractionWorkerPool({ size: poolSize })
  return pool
}

/**
 * Turns a document into passages: its format is found (`indexableFormat`), its text extracted and chunked
 * (`maximumChunkLength`) in a worker thread of a shared pool, under the limits (time, heap, pages, output, zip
 * bombs, nesting). Fails with an `ExtractionError` whose `message` is fit for a file's `failedStatusReason`.
 * Cheap checks (empty, too large, unsupported, bad options) are made before any byte is copied to a worker.
 *
 * @example
 * ```ts
 * const passages = await extractPassages({ content, contentType: 'application/pdf', key: 'guide.pdf' }, { maximumChunkLength: 800 })
 * passages[0] // { content: 'Installation', meta: { type: 'chunk', subtype: 'title', pageNumber: 1, position: 0 }, breadcrumb: [] }
 * ```
 */
export async function extractPassages(doc: DocumentInput, options: ExtractOptions = {}): Promise<ExtractedPassage[]> {
  const maximumChunkLength = resolveMaximumChunkLength(options.maximumChunkLength)
  const limits = resolveLimits(options.limits)
  if (!(doc.content instanceof Uint8Array)) {
    throw new ExtractionError('INVALID_OPTIONS', `content: expected a Uint8Array, received ${doc.content === null ? 'null' : typeof doc.content}`)
  }
  precheckDocument(doc, limits)
  if (options.signal?.aborted) throw new ExtractionError('ABORTED', `${doc.key} was not extracted: the extraction was aborted`)
  return sharedPool().run({ content: doc.content, contentType: doc.contentType, key: doc.key, maximumChunkLength, limits }, options.signal)
}

/**
 * The bounds of rendering a PDF's pages (decision 1481): the longest side of a page image, in pixels (text of 9 pt
 * stays legible to a vision model, a page stays well under the models' image limits); the most pages of one file
 * rendered (the official client documents 100 for `vision`); the pages rendered by one call (a batch: the images
 * held at once); the wall-clock time of one call.
 *
 * @example
 * ```ts
 * PAGE_RENDER_LIMITS.maxPages // 100
 * ```
 */
export const PAGE_RENDER_LIMITS = Object.freeze({ longestSidePx: 1500, maxPages: 100, batchPages: 10, timeMs: 60_000 })

/**
 * Renders pages of a PDF to PNG images (each scaled to `PAGE_RENDER_LIMITS.longestSidePx` on its longest side) in a
 * worker thread of the extraction pool: `pages` is `true` for every page or page numbers; pages the document does
 * not have are skipped, and beyond the first `maxPages` (default `PAGE_RENDER_LIMITS.batchPages`) of the asked pages
 * are listed in `overCap` instead of rendered (render them with another call). Fails with an `ExtractionError`: a PDF pdf.js cannot read, no canvas
 * on this server (`WORKER_FAILED`), `TIME_LIMIT` after `PAGE_RENDER_LIMITS.timeMs`.
 *
 * @example
 * ```ts
 * const { pageCount, pages, overCap } = await renderPdfPages({ content, key: 'scan.pdf' }, { pages: [1, 2] })
 * pages[0] // { pageNumber: 1, png: Uint8Array, width: 1160, height: 1500 }
 * ```
 */
export async function renderPdfPages(
  doc: { content: Uint8Array; key: string },
  options: { pages: true | readonly number[]; maxPages?: number; signal?: AbortSignal },
): Promise<RenderedPdfPages> {
  const limits = resolveLimits({ timeMs: PAGE_RENDER_LIMITS.timeMs })
  if (doc.content.byteLength === 0) throw new ExtractionError('EMPTY_DOCUMENT', `${doc.key} is empty: there are no pages to render`)
  if (options.signal?.aborted) throw new ExtractionError('ABORTED', `${doc.key} was not rendered: the rendering was aborted`)
  const request = {
    content: doc.content,
    key: doc.key,
    pages: options.pages === true ? (true as const) : [...options.pages],
    maxPages: options.maxPages ?? PAGE_RENDER_LIMITS.batchPages,
    longestSidePx: PAGE_RENDER_LIMITS.longestSidePx,
    limits,
  }
  return sharedPool().renderPages(request, options.signal)
}

/**
 * Stops the extraction worker threads (documents in progress fail with `ABORTED`); the next extraction starts
 * them again. Called when the server stops, and by tests.
 *
 * @example
 * ```ts
 * await closeExtractionWorkers()
 * ```
 */
export async function closeExtractionWorkers(): Promise<void> {
  const current = pool
  pool = undefined
  await current?.close()
}

/**
 * Sets how many documents are extracted at once (one worker thread each; default 1). The current threads are
 * stopped (as by `closeExtractionWorkers`), so call it at start-up, before extracting.
 *
 * @example
 * ```ts
 * await configureExtractionWorkers({ poolSize: 2 })
 * ```
 */
export async function configureExtractionWorkers(options: {
  /** Worker threads, 1..64, e.g. `{ poolSize: 2 }` on a machine with cores to spare. */
  poolSize: number
}): Promise<void> {
  const size = options.poolSize
  if (!Number.isInteger(size) || size < 1 || size > 64) {
    throw new ExtractionError('INVALID_OPTIONS', `poolSize: expected an integer from 1 to 64, received ${JSON.stringify(size)}`)
  }
  await closeExtractionWorkers()
  poolSize = size
}
