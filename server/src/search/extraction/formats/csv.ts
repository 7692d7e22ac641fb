import type { DocumentBlock } from '../chunking/document-block.js'
import { charsetOf, decodeText } from '../text/decode-text.js'
import { parseCsvRecords, sniffDelimiter } from './csv-records.js'
import type { ReadContext } from './format-reader.js'

/**
 * CSV: the first record is the header; every other record becomes a line `header: value; ...` of one records
 * table, which the chunker groups into passages. The delimiter is `,`, or `;` or tab when the header says so.
 *
 * @example
 * ```ts
 * readCsv(new TextEncoder().encode('name,age\nAda,36'), context) // [{ kind: 'table', style: 'records', header: ['name', 'age'], rows: [['Ada', '36']] }]
 * ```
 */
export function readCsv(bytes: Uint8Array, context: ReadContext): DocumentBlock[] {
  const text = decodeText(bytes, context.key, charsetOf(context.contentType))
  const records = parseCsvRecords(text, sniffDelimiter(text), context.key)
  const [header, ...rows] = records
  if (!header) return []
  if (rows.length === 0) return [{ kind: 'paragraph', text: header.join(', ') }]
  return [{ kind: 'table', style: 'records', header, rows }]
}
