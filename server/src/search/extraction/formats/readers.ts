import type { DocumentFormat } from '../formats.js'
import type { FormatReader } from './format-reader.js'

/**
 * The reader of each format, loaded on first use: a worker thread loads only the libraries of the formats it
 * meets (exceljs, mammoth and pdf.js are large), which keeps its start-up and heap small.
 */
export const formatReaders: Record<DocumentFormat, () => Promise<FormatReader>> = {
  pdf: async () => (await import('./pdf.js')).readPdf,
  docx: async () => (await import('./docx.js')).readDocx,
  pptx: async () => (await import('./pptx.js')).readPptx,
  xlsx: async () => (await import('./xlsx.js')).readXlsx,
  html: async () => (await import('./html.js')).readHtml,
  markdown: async () => (await import('./markdown.js')).readMarkdown,
  csv: async () => (await import('./csv.js')).readCsv,
  text: async () => (await import('./plain-text.js')).readPlainText,
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
