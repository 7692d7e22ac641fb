import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ExtractionError } from '../extraction-error.js'
import { openPdfDocument } from './pdf.js'

/** One PDF page rendered to a PNG image. */
export interface RenderedPage {
  /** 1-based page number. */
  pageNumber: number
  /** The PNG file's bytes. */
  png: Uint8Array
  /** Width and height of the image, in pixels. */
  width: number
  height: number
}

/** What rendering a PDF's pages gives: the pages rendered, the document's page count, the pages left out for the cap. */
export interface RenderedPdfPages {
  /** Pages of the document. */
  pageCount: number
  /** The pages rendered, in page order. */
  pages: RenderedPage[]
  /** Pages of the document asked for but not rendered because `maxPages` were already rendered, in page order. */
  overCap: number[]
}

/** Which pages to render and how large. */
export interface RenderPagesOptions {
  /** The document's key, named in errors. */
  key: string
  /** `true` for every page, else 1-based page numbers (duplicates, and pages the document does not have, are skipped). */
  pages: true | readonly number[]
  /** The most pages rendered: the first of the asked pages, in page order. */
  maxPages: number
  /** The longest side of a rendered page, in pixels (the page is scaled to it, keeping its aspect). */
  longestSidePx: number
}

/** The canvas pdf.js makes in Node.js: @napi-rs/canvas, its optional dependency, which encodes PNG itself. */
interface NodeCanvas {
  width: number
  height: number
  encode(format: 'png'): Promise<Uint8Array>
}
interface CanvasFactory {
  create(width: number, height: number): { canvas: NodeCanvas; context: CanvasRenderingContext2D }
  destroy(canvasAndContext: { canvas: NodeCanvas | null; context: CanvasRenderingContext2D | null }): void
}

/** pdf.js's standard fonts (the 14 a PDF may use without embedding them), read from its package folder. */
function standardFontsFolder(): string {
  return `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`
}

/** A canvas from pdf.js's factory; its failure (no @napi-rs/canvas) says that rendering is not possible here. */
function makeCanvas(factory: CanvasFactory, width: number, height: number): { canvas: NodeCanvas; context: CanvasRenderingContext2D } {
  let made: ReturnType<CanvasFactory['create']>
  try {
    made = factory.create(width, height)
  } catch (error) {
    throw new ExtractionError('WORKER_FAILED', `PDF pages cannot be rendered on this server: no canvas could be made (pdf.js draws on its optional package @napi-rs/canvas): ${(error as Error)?.message ?? String(error)}`)
  }
  if (typeof made.canvas.encode !== 'function') throw new ExtractionError('WORKER_FAILED', 'PDF pages cannot be rendered on this server: the canvas pdf.js made cannot encode PNG (@napi-rs/canvas is expected)')
  return made
}

/**
 * The pages of `options.pages` a document of `pageCount` pages has, sorted, without duplicates.
 *
 * @example
 * ```ts
 * pagesToRender([3, 1, 3, 9], 5) // [1, 3]
 * pagesToRender(true, 3) // [1, 2, 3]
 * ```
 */
export function pagesToRender(pages: true | readonly number[], pageCount: number): number[] {
  if (pages === true) return Array.from({ length: pageCount }, (_, index) => index + 1)
  return [...new Set(pages)].filter((page) => Number.isInteger(page) && page >= 1 && page <= pageCount).sort((a, b) => a - b)
}

/**
 * Renders PDF pages to PNG images with pdf.js on @napi-rs/canvas, in the current thread (the extraction worker runs
 * it; callers want `renderPdfPages`, which runs it there under the limits). Each page is scaled so that its longest
 * side is `longestSidePx` pixels and drawn on white, on the canvas pdf.js makes (its optional @napi-rs/canvas, loaded with pdf.js); at most `maxPages` pages are rendered, the rest of the asked
 * pages are listed in `overCap`. A PDF pdf.js cannot read is `CORRUPT_DOCUMENT` (a password-protected one
 * `UNSUPPORTED_FORMAT`); a missing canvas package is `WORKER_FAILED`.
 *
 * @example
 * ```ts
 * const { pageCount, pages } = await renderPdfPagesHere(bytes, { key: 'scan.pdf', pages: [1], maxPages: 50, longestSidePx: 1500 })
 * pages[0] // { pageNumber: 1, png: Uint8Array [0x89, 0x50, ...], width: 1160, height: 1500 }
 * ```
 */
export async function renderPdfPagesHere(bytes: Uint8Array, options: RenderPagesOptions): Promise<RenderedPdfPages> {
  const { key } = options
  // Glyphs are drawn as paths (no font loading); the standard fonts come from pdf.js's own folder.
  const document = await openPdfDocument(bytes, key, 'whose pages cannot be rendered', { standardFontDataUrl: standardFontsFolder() })
  try {
    const factory = document.canvasFactory as CanvasFactory
    const asked = pagesToRender(options.pages, document.numPages)
    const pages: RenderedPage[] = []
    for (const pageNumber of asked.slice(0, options.maxPages)) {
      const page = await document.getPage(pageNumber)
      const natural = page.getViewport({ scale: 1 })
      const viewport = page.getViewport({ scale: options.longestSidePx / Math.max(natural.width, natural.height, 1) })
      const width = Math.max(1, Math.round(viewport.width))
      const height = Math.max(1, Math.round(viewport.height))
      const target = makeCanvas(factory, width, height)
      try {
        target.context.fillStyle = '#ffffff'
        target.context.fillRect(0, 0, width, height)
        // @napi-rs/canvas implements the part of HTMLCanvasElement pdf.js draws with.
        await page.render({ canvas: target.canvas as unknown as HTMLCanvasElement, canvasContext: target.context, viewport }).promise
        // A copy of its own, so that the bytes can be transferred to the calling thread.
        pages.push({ pageNumber, png: new Uint8Array(await target.canvas.encode('png')), width, height })
      } finally {
        factory.destroy(target)
        page.cleanup()
      }
    }
    return { pageCount: document.numPages, pages, overCap: asked.slice(options.maxPages) }
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    throw new ExtractionError('CORRUPT_DOCUMENT', `the pages of ${key} could not be rendered: ${(error as Error)?.message ?? String(error)}`)
  } finally {
    await document.destroy()
  }
}
