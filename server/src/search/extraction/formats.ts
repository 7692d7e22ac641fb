/** The document formats botshelf reads for search. */
export type DocumentFormat = 'pdf' | 'docx' | 'pptx' | 'xlsx' | 'html' | 'markdown' | 'csv' | 'text'

const byContentType: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/plain': 'text',
}

const byExtension: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  md: 'markdown',
  markdown: 'markdown',
  csv: 'csv',
  txt: 'text',
  text: 'text',
}

/** Content types that say nothing about the format: the key's extension decides. */
const generic = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary', 'application/unknown'])

/**
 * The format a document will be read as: by its content type (parameters such as `charset` ignored), or by its
 * key's extension when the content type is missing or generic (`application/octet-stream`); `undefined` when
 * botshelf cannot index it.
 *
 * @example
 * ```ts
 * indexableFormat('application/pdf', 'report') // 'pdf'
 * indexableFormat('application/octet-stream', 'notes.md') // 'markdown'
 * indexableFormat('image/png', 'cat.png') // undefined
 * ```
 */
export function indexableFormat(contentType: string, key: string): DocumentFormat | undefined {
  return formatBy(contentType, key, byContentType, byExtension)
}

/**
 * A format looked up by content type (parameters ignored), else, when the content type is missing or generic, by the
 * key's extension (lower case): the one rule every reader of uploaded content follows.
 *
 * @example
 * ```ts
 * formatBy('application/octet-stream', 'cat.PNG', { 'image/png': 'png' }, { png: 'png' }) // 'png'
 * ```
 */
export function formatBy<T>(contentType: string, key: string, types: Record<string, T>, extensions: Record<string, T>): T | undefined {
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase()
  const known = Object.hasOwn(types, type) ? types[type] : undefined
  if (known) return known
  if (!generic.has(type)) return undefined
  const name = key.slice(key.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return undefined
  const extension = name.slice(dot + 1).toLowerCase()
  return Object.hasOwn(extensions, extension) ? extensions[extension] : undefined
}
