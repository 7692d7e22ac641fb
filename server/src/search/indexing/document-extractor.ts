import type { ExtractedPassage } from '../extraction/index.js'

export type { ExtractedPassage }

/**
 * Turns a document's bytes into passages no longer than `maximumChunkLength` characters. It rejects with an error
 * whose message is a human reason (an unreadable PDF, an unsupported format) when the document cannot be indexed;
 * that message becomes the file's `failedStatusReason`.
 *
 * @example
 * ```ts
 * const extractor: DocumentExtractor = extractPassages // the default, from src/indexing
 * const plainText: DocumentExtractor = async (doc, { maximumChunkLength }) =>
 *   new TextDecoder().decode(doc.content).split('\n\n').map((content, position) => ({
 *     content: content.slice(0, maximumChunkLength), meta: { type: 'chunk', subtype: 'paragraph', position }, breadcrumb: [],
 *   }))
 * ```
 */
export type DocumentExtractor = (
  doc: { content: Uint8Array; contentType: string; key: string },
  options: { maximumChunkLength: number; signal: AbortSignal },
) => Promise<ExtractedPassage[]>
