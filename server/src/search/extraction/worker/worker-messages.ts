import type { RenderedPdfPages, RenderPagesOptions } from '../formats/pdf-pages.js'
import type { ExtractionLimits } from '../limits.js'
import type { ExtractedPassage } from '../passage.js'

/** What the pool sends a worker: one document to extract. */
export interface ExtractionRequest {
  kind: 'extract'
  id: number
  content: Uint8Array
  contentType: string
  key: string
  maximumChunkLength: number
  limits: ExtractionLimits
}

/** What the pool sends a worker: pages of one PDF to render to PNG images. */
export interface PageRenderRequest extends RenderPagesOptions {
  kind: 'render-pages'
  id: number
  content: Uint8Array
  limits: ExtractionLimits
}

/** Any request a worker runs. */
export type WorkerRequest = ExtractionRequest | PageRenderRequest

/** What a worker answers: the passages, the rendered pages, or an `ExtractionError` as plain data. */
export type ExtractionResponse =
  | { id: number; ok: true; passages: ExtractedPassage[] }
  | { id: number; ok: true; rendered: RenderedPdfPages }
  | { id: number; ok: false; code: string; message: string; metadata?: Record<string, unknown> }
