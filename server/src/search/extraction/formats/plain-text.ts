import type { DocumentBlock } from '../chunking/document-block.js'
import { charsetOf, decodeText } from '../text/decode-text.js'
import type { ReadContext } from './format-reader.js'

/**
 * Plain text: paragraphs separated by blank lines (a form feed starts a new paragraph too).
 *
 * @example
 * ```ts
 * readPlainText(new TextEncoder().encode('one\n\ntwo'), context) // two paragraph blocks
 * ```
 */
export function readPlainText(bytes: Uint8Array, context: ReadContext): DocumentBlock[] {
  const text = decodeText(bytes, context.key, charsetOf(context.contentType))
  return text
    .split(/\r?\n[ \t]*(?:\r?\n[ \t]*)+|\r[ \t]*(?:\r[ \t]*)+|\f/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => ({ kind: 'paragraph', text: paragraph }))
}
