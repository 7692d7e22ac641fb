import type { ExtractionLimits } from '../limits.js'
import type { ExtractedPassage } from '../passage.js'

/** What the pool sends a worker: one document to extract. */
export interface ExtractionRequest {
  id: number
  content: Uint8Array
  contentType: string
  key: string
  maximumChunkLength: number
  limits: ExtractionLimits
}

/** What a worker answers: the passages, or an `ExtractionError` as plain data. */
export type ExtractionResponse =
  | { id: number; ok: true; passages: ExtractedPassage[] }
  | { id: number; ok: false; code: string; message: string; metadata?: Record<string, unknown> }
