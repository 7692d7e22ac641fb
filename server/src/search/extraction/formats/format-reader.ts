import type { DocumentBlock } from '../chunking/document-block.js'
import type { ExtractionLimits } from '../limits.js'

/** What a format reader knows about the document besides its bytes. */
export interface ReadContext {
  /** The file's key, named in error messages. */
  key: string
  /** The content type as stored (a `charset` parameter is honoured by the text formats). */
  contentType: string
  limits: ExtractionLimits
}

/** Reads one format's bytes into blocks, in document order. */
export type FormatReader = (bytes: Uint8Array, context: ReadContext) => DocumentBlock[] | Promise<DocumentBlock[]>
