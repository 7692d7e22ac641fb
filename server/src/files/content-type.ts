const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  jsonl: 'application/jsonl',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  pdf: 'application/pdf',
  rtf: 'application/rtf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  epub: 'application/epub+zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
}

/**
 * The content type of a key from its extension (case-insensitive), else `application/octet-stream`
 * (docs/wire-format.md §10).
 *
 * @example
 * ```ts
 * contentTypeFromKey('reports/Q3.PDF') // 'application/pdf'
 * contentTypeFromKey('README') // 'application/octet-stream'
 * ```
 */
export function contentTypeFromKey(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  if (dot < 0) return 'application/octet-stream'
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * Types a browser may render inline from a download URL without running anything. Everything else
 * (HTML, SVG, XML, scripts, unknown types) is sent as an attachment.
 */
const INLINE_SAFE: ReadonlySet<string> = new Set([
  'text/plain',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/mp4',
  'video/mp4',
  'video/webm',
])

/**
 * Whether content of this type may be served `inline`. Parameters (`; charset=utf-8`) are ignored; HTML and
 * SVG never are.
 *
 * @example
 * ```ts
 * isInlineSafe('image/png') // true
 * isInlineSafe('text/html; charset=utf-8') // false
 * ```
 */
export function isInlineSafe(contentType: string): boolean {
  const essence = contentType.split(';')[0]!.trim().toLowerCase()
  return INLINE_SAFE.has(essence)
}
