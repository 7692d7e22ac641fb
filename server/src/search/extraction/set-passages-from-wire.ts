import { chunkBlocks } from './chunking/chunk-blocks.js'
import { resolveMaximumChunkLength } from './chunking/chunk-options.js'
import type { DocumentBlock } from './chunking/document-block.js'
import { ExtractionError } from './extraction-error.js'
import { DEFAULT_EXTRACTION_LIMITS } from './limits.js'
import type { ExtractedPassage } from './passage.js'
import { pipeTable } from './formats/pipe-table.js'

/** A passage as `setFilePassages` receives it. */
export interface WirePassage {
  /** Markdown text. */
  content: string
  type?: 'title' | 'subtitle' | 'paragraph' | 'blockquote' | 'list' | 'table' | 'code' | 'image'
  pageNumber?: number
}

/**
 * The passages a caller gives with `setFilePassages`, made into stored passages by the same chunker: their
 * boundaries and order are kept (no packing of neighbours), a passage longer than `maximumChunkLength` is split
 * (paragraphs at sentences with overlap, Markdown tables by rows with the header repeated, code by lines), titles
 * (`title` = level 1, `subtitle` = level 2) form the breadcrumb of what follows, and blank passages are dropped.
 * Runs in the caller's thread: the input is bounded by the request size.
 *
 * @example
 * ```ts
 * setPassagesFromWire([{ content: 'Intro', type: 'title', pageNumber: 1 }, { content: 'Hello.' }])
 * // [{ content: 'Intro', meta: { subtype: 'title', pageNumber: 1, ... } }, { content: 'Hello.', breadcrumb: ['Intro'], ... }]
 * ```
 */
export function setPassagesFromWire(passages: WirePassage[], options: { /** Longest passage, e.g. `{ maximumChunkLength: 1000 }`. */ maximumChunkLength?: number } = {}): ExtractedPassage[] {
  const maximumChunkLength = resolveMaximumChunkLength(options.maximumChunkLength)
  const blocks: DocumentBlock[] = []
  let page: number | undefined
  passages.forEach((passage, index) => {
    if (typeof passage?.content !== 'string') {
      throw new ExtractionError('INVALID_OPTIONS', `passages[${index}].content: expected a string, received ${passage?.content === null ? 'null' : typeof passage?.content}`)
    }
    const pageNumber = passage.pageNumber
    if (pageNumber !== undefined && (!Number.isInteger(pageNumber) || pageNumber < 1)) {
      throw new ExtractionError('INVALID_OPTIONS', `passages[${index}].pageNumber: expected a positive integer, received ${JSON.stringify(pageNumber)}`)
    }
    if (pageNumber !== page) {
      blocks.push({ kind: 'page', pageNumber, resetHeadings: false })
      page = pageNumber
    }
    // The caller's boundaries are kept: a break after each passage stops the chunker from packing neighbours.
    blocks.push(blockOf(passage), { kind: 'break' })
  })
  return chunkBlocks(blocks, { maximumChunkLength, maxOutputChars: DEFAULT_EXTRACTION_LIMITS.maxOutputChars, key: 'the passages' })
}

function blockOf(passage: WirePassage): DocumentBlock {
  const text = passage.content
  switch (passage.type) {
    case 'title':
      return { kind: 'heading', level: 1, text }
    case 'subtitle':
      return { kind: 'heading', level: 2, text }
    case 'table':
      return pipeTable(text.trim()) ?? { kind: 'paragraph', text }
    case 'code': {
      const fenced = /^\s*(`{3,}|~{3,})([\w+#.-]*)[^\n]*\n([\s\S]*?)\n?\s*\1\s*$/.exec(text)
      return fenced ? { kind: 'code', text: fenced[3]!, ...(fenced[2] ? { language: fenced[2] } : {}) } : { kind: 'code', text }
    }
    case 'list':
      return { kind: 'list', items: text.split(/\r?\n(?=\s*(?:[-*+]|\d+[.)])\s)/).map((item) => item.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')), ordered: /^\s*\d+[.)]\s/.test(text) }
    case 'blockquote':
      return { kind: 'blockquote', text: text.replace(/^\s*>\s?/gm, '') }
    case 'image':
      return { kind: 'image', text }
    default:
      return { kind: 'paragraph', text }
  }
}
