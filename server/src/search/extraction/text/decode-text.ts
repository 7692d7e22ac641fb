import { ExtractionError } from '../extraction-error.js'

/**
 * The text of a text-like document (HTML, Markdown, CSV, plain text): a byte-order mark decides (UTF-8, UTF-16 LE,
 * UTF-16 BE) and is dropped; without one, a `charset` the runtime knows decides; otherwise UTF-8 when the bytes
 * are valid UTF-8, else Latin-1 (as Windows-1252, like browsers), which never fails. Bytes that decode to text
 * full of control characters are binary: `CORRUPT_DOCUMENT`.
 *
 * @example
 * ```ts
 * decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]), 'notes.txt') // 'hi'
 * ```
 */
export function decodeText(bytes: Uint8Array, key: string, charset?: string): string {
  const text = decode(bytes, charset)
  if (looksBinary(text)) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `${key} is not text: its bytes decode to control characters (a binary file with a text type?)`)
  }
  return text
}

function decode(bytes: Uint8Array, charset: string | undefined): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3))
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  const declared = charset ? decoderFor(charset) : undefined
  if (declared && declared.encoding !== 'utf-8') return declared.decode(bytes)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

function decoderFor(charset: string): TextDecoder | undefined {
  try {
    return new TextDecoder(charset.trim().toLowerCase())
  } catch {
    return undefined
  }
}

/** NUL anywhere, or more than 2% C0 control characters other than tab, line feed, form feed and carriage return. */
function looksBinary(text: string): boolean {
  const sample = text.length > 65_536 ? text.slice(0, 65_536) : text
  let controls = 0
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i)
    if (c === 0) return true
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) controls++
  }
  return controls > sample.length * 0.02
}

/**
 * The `charset` parameter of a content type, if any.
 *
 * @example
 * ```ts
 * charsetOf('text/plain; charset="utf-16le"') // 'utf-16le'
 * ```
 */
export function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)
  return match?.[1]
}
