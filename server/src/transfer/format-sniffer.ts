import { Buffer } from 'node:buffer'

/** The text formats an import file may have. */
export type ImportTextFormat = 'json' | 'csv'

const WHITESPACE = /^\s$/u

/** Bytes of the UTF-8 character a lead byte starts, or 0 for a byte that cannot start one. */
function utf8Length(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2
  if (lead >= 0xe0 && lead <= 0xef) return 3
  if (lead >= 0xf0 && lead <= 0xf4) return 4
  return 0
}

/**
 * Tells JSON from CSV by the first character that is not whitespace, as `text.trimStart()[0]` did: JSON when it
 * is `{` or `[`, CSV otherwise (also for a file of only whitespace). "Whitespace" is JavaScript's (`\s`: a BOM,
 * no-break and other Unicode spaces included), read incrementally from bytes, a character split across slices
 * included.
 *
 * @example
 * ```ts
 * const sniffer = new FormatSniffer()
 * sniffer.push(Buffer.from('\uFEFF  ')) // undefined: only whitespace so far
 * sniffer.push(Buffer.from('[{"a":1}]')) // 'json'
 * ```
 */
export class FormatSniffer {
  private readonly pending: number[] = []

  /**
   * Reads the next bytes; returns the format once a character other than whitespace was seen.
   *
   * @example
   * ```ts
   * sniffer.push(Buffer.from('name,score\n')) // 'csv'
   * ```
   */
  push(bytes: Uint8Array): ImportTextFormat | undefined {
    for (const byte of bytes) {
      if (this.pending.length > 0) {
        if ((byte & 0xc0) !== 0x80) return 'csv' // a broken character decodes to U+FFFD, which is not whitespace
        this.pending.push(byte)
        if (this.pending.length < utf8Length(this.pending[0]!)) continue
        const character = Buffer.from(this.pending).toString('utf8')
        this.pending.length = 0
        if (!WHITESPACE.test(character)) return 'csv'
        continue
      }
      if (byte === 0x7b || byte === 0x5b) return 'json'
      if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue
      if (byte < 0x80 || utf8Length(byte) === 0) return 'csv'
      this.pending.push(byte)
    }
    return undefined
  }
}
