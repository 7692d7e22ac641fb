/**
 * One passage an extractor found, in document order: its Markdown text, its kind and place, and the headings above
 * it. Declared here until the extraction module lands (the integrator keeps one declaration).
 */
export interface ExtractedPassage {
  content: string
  meta: {
    type: 'chunk'
    subtype: 'title' | 'subtitle' | 'paragraph' | 'blockquote' | 'list' | 'table' | 'code' | 'image' | 'page'
    pageNumber?: number
    position: number
  }
  breadcrumb: string[]
}

/**
 * Turns a document's bytes into passages no longer than `maximumChunkLength` characters. It rejects with an error
 * whose message is a human reason (an unreadable PDF, an unsupported format) when the document cannot be indexed;
 * that message becomes the file's `failedStatusReason`.
 *
 * @example
 * ```ts
 * const extractor: DocumentExtractor = async (doc, { maximumChunkLength }) =>
 *   new TextDecoder().decode(doc.content).split('\n\n').map((content, position) => ({
 *     content: content.slice(0, maximumChunkLength), meta: { type: 'chunk', subtype: 'paragraph', position }, breadcrumb: [],
 *   }))
 * ```
 */
export type DocumentExtractor = (
  doc: { content: Uint8Array; contentType: string; key: string },
  options: { maximumChunkLength: number; signal: AbortSignal },
) => Promise<ExtractedPassage[]>
