import type { DocumentFormat } from '../formats.js'
import { readCsv } from './csv.js'
import { readDocx } from './docx.js'
import type { FormatReader } from './format-reader.js'
import { readHtml } from './html.js'
import { readMarkdown } from './markdown.js'
import { readPdf } from './pdf.js'
import { readPlainText } from './plain-text.js'
import { readPptx } from './pptx.js'
import { readXlsx } from './xlsx.js'

/** The reader of each format. */
export const formatReaders: Record<DocumentFormat, FormatReader> = {
  pdf: readPdf,
  docx: readDocx,
  pptx: readPptx,
  xlsx: readXlsx,
  html: readHtml,
  markdown: readMarkdown,
  csv: readCsv,
  text: readPlainText,
}

/** How each format is named in messages. */
export const formatNames: Record<DocumentFormat, string> = {
  pdf: 'PDF',
  docx: 'Word (DOCX)',
  pptx: 'PowerPoint (PPTX)',
  xlsx: 'Excel (XLSX)',
  html: 'HTML',
  markdown: 'Markdown',
  csv: 'CSV',
  text: 'plain text',
}
