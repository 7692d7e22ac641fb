/** A document made by a test generator: what an upload needs (bytes, content type, key). */
export interface GeneratedDocument {
  content: Uint8Array
  contentType: string
  key: string
}

/** One section of a generated document: a heading and the paragraphs under it. */
export interface DocumentSection {
  heading: string
  paragraphs: string[]
}

export const contentTypes = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  markdown: 'text/markdown',
  csv: 'text/csv',
  text: 'text/plain',
} as const

/** Text escaped for XML content and attributes. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}
