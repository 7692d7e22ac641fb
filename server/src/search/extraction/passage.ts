/** What a passage is, in the words of the wire's `Passage.meta`. */
export interface PassageMeta {
  /** Always `'chunk'` here: summaries and consolidated passages are made elsewhere, if at all. */
  type: 'chunk'
  /** The kind of block the passage comes from. `'page'` is reserved for whole-page text and not produced today. */
  subtype: PassageSubtype
  /** 1-based page of paged formats: PDF pages, PPTX slides, XLSX sheets. */
  pageNumber?: number
  /** 0-based order of the passage in the document. */
  position: number
}

/** The subtypes of the wire's `Passage.meta.subtype`. */
export type PassageSubtype = 'title' | 'subtitle' | 'paragraph' | 'blockquote' | 'list' | 'table' | 'code' | 'image' | 'page'

/** One passage of a document: Markdown text at most `maximumChunkLength` characters long. */
export interface ExtractedPassage {
  /** The text (Markdown), whitespace normalized, never empty. */
  content: string
  meta: PassageMeta
  /** The heading path the passage sits under, outermost first (empty before the first heading). */
  breadcrumb: string[]
}
