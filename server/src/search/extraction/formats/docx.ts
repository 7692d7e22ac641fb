import mammoth from 'mammoth'
import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import type { ReadContext } from './format-reader.js'
import { htmlToBlocks } from './html.js'
import { checkedOoxml } from './ooxml-package.js'

/**
 * DOCX: converted to HTML by mammoth (headings from the `Heading N` styles, lists, tables, footnotes), then read
 * like HTML. Pictures keep only their alt text; headers, footers and comments are not read.
 *
 * @example
 * ```ts
 * await readDocx(bytes, context) // heading, paragraph, list and table blocks
 * ```
 */
export async function readDocx(bytes: Uint8Array, context: ReadContext): Promise<DocumentBlock[]> {
  const buffer = checkedOoxml(bytes, context.key, context.limits, 'word/document.xml', 'a Word document')
  let html: string
  try {
    const result = await mammoth.convertToHtml({ buffer }, { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) })
    html = result.value
  } catch (error) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `${context.key} could not be read as a Word document: ${(error as Error).message}`)
  }
  return htmlToBlocks(html, context)
}
