import { chunkBlocks } from './chunking/chunk-blocks.js'
import { resolveMaximumChunkLength } from './chunking/chunk-options.js'
import { ExtractionError } from './extraction-error.js'
import { indexableFormat } from './formats.js'
import { formatNames, formatReaders } from './formats/readers.js'
import type { ExtractionLimits } from './limits.js'
import type { ExtractedPassage } from './passage.js'

/** A document to extract: its bytes, its content type and its key (for the format fallback and messages). */
export interface DocumentInput {
  content: Uint8Array
  contentType: string
  key: string
}

/**
 * Checks that can be made without reading the document, shared by the caller's thread (before copying the bytes
 * to a worker) and the worker: not empty, not over `maxInputBytes`, a format botshelf reads.
 *
 * @example
 * ```ts
 * precheckDocument({ content: new Uint8Array(), contentType: 'text/plain', key: 'a.txt' }, limits) // throws EMPTY_DOCUMENT
 * ```
 */
export function precheckDocument(doc: DocumentInput, limits: ExtractionLimits): void {
  if (doc.content.byteLength === 0) throw new ExtractionError('EMPTY_DOCUMENT', `${doc.key} is empty: there is no text to index`)
  if (doc.content.byteLength > limits.maxInputBytes) {
    throw new ExtractionError('TOO_LARGE', `${doc.key} is ${doc.content.byteLength} bytes, more than the ${limits.maxInputBytes} a document may have to be indexed`)
  }
  if (indexableFormat(doc.contentType, doc.key) === undefined) {
    throw new ExtractionError(
      'UNSUPPORTED_FORMAT',
      `${doc.key} has content type "${doc.contentType}", which cannot be indexed; supported: PDF, DOCX, PPTX, XLSX, HTML, Markdown, CSV and plain text`,
    )
  }
}

/**
 * Extraction and chunking in the current thread, with no time or memory bound: what the worker runs. Callers want
 * `extractPassages`, which runs this in a worker under the limits.
 *
 * @example
 * ```ts
 * await extractDocumentHere({ content, contentType: 'text/markdown', key: 'a.md' }, { maximumChunkLength: 1000, limits: DEFAULT_EXTRACTION_LIMITS })
 * ```
 */
export async function extractDocumentHere(
  doc: DocumentInput,
  options: { maximumChunkLength?: number | undefined; limits: ExtractionLimits },
): Promise<ExtractedPassage[]> {
  const { limits } = options
  const maximumChunkLength = resolveMaximumChunkLength(options.maximumChunkLength)
  precheckDocument(doc, limits)
  const format = indexableFormat(doc.contentType, doc.key)!
  const read = await formatReaders[format]()
  let passages: ExtractedPassage[]
  try {
    const blocks = await read(doc.content, { key: doc.key, contentType: doc.contentType, limits })
    passages = chunkBlocks(blocks, { maximumChunkLength, maxOutputChars: limits.maxOutputChars, key: doc.key })
  } catch (error) {
    if (error instanceof ExtractionError) throw error
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new ExtractionError('TOO_DEEP', `${doc.key} is nested too deeply to be read as ${formatNames[format]}`)
    }
    throw new ExtractionError('CORRUPT_DOCUMENT', `${doc.key} could not be read as ${formatNames[format]}: ${(error as Error)?.message ?? String(error)}`)
  }
  if (passages.length === 0) {
    throw new ExtractionError('NO_TEXT', `${doc.key} has no text to index (${formatNames[format]}${format === 'pdf' ? '; scanned pages are read by a language model with indexing.configuration.vision.transcribePages' : ''})`)
  }
  return passages
}
