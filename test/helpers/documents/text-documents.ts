import { contentTypes, type GeneratedDocument, utf8 } from './generated-document.js'

export function htmlDocument(html: string, key = 'generated.html'): GeneratedDocument {
  return { content: utf8(html), contentType: contentTypes.html, key }
}

export function markdownDocument(markdown: string, key = 'generated.md'): GeneratedDocument {
  return { content: utf8(markdown), contentType: contentTypes.markdown, key }
}

/** CSV from rows (the first is the header), quoted where RFC 4180 requires, CRLF line endings. */
export function csvDocument(rows: string[][], key = 'generated.csv'): GeneratedDocument {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value)
  return { content: utf8(rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n'), contentType: contentTypes.csv, key }
}

export function textDocument(text: string, key = 'generated.txt'): GeneratedDocument {
  return { content: utf8(text), contentType: contentTypes.text, key }
}
