import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { seededRandom } from 'botshelf/testing'
import { parseCsv, type CsvField } from './csv.js'
import { CsvRecordScanner } from './csv-record-scanner.js'
import { TransferError } from './transfer-error.js'

/** The bytes cut at the given sizes (cycled), the last piece taking what is left. */
function pieces(bytes: Buffer, sizes: () => number): Buffer[] {
  const out: Buffer[] = []
  for (let at = 0; at < bytes.length; ) {
    const size = Math.max(1, sizes())
    out.push(bytes.subarray(at, at + size))
    at += size
  }
  return out
}

function scan(chunks: Buffer[], maxRowBytes = 1 << 20): CsvField[][] {
  const records: CsvField[][] = []
  const scanner = new CsvRecordScanner({
    maxRowBytes,
    onRecord: (record) => {
      const fields: CsvField[] = []
      for (let i = 0; i < record.fieldCount; i++) fields.push({ text: record.fieldText(i), quoted: record.fieldQuoted(i) })
      records.push(fields)
    },
  })
  for (const chunk of chunks) scanner.push(chunk)
  scanner.end()
  return records
}

function scanError(chunks: Buffer[], maxRowBytes?: number): TransferError {
  try {
    scan(chunks, maxRowBytes)
  } catch (error) {
    if (error instanceof TransferError) return error
    throw error
  }
  throw new Error('expected a TransferError')
}

const oneByte = () => 1

describe('CsvRecordScanner', () => {
  it('reads exactly what parseCsv reads, or fails where it fails, however the bytes are cut', () => {
    const random = seededRandom(4180)
    const alphabet = ['a', 'b', ',', ',', '"', '"', '""', '\r', '\n', '\r\n', ' ', 'é', '😀']
    for (let n = 0; n < 3000; n++) {
      let text = ''
      const length = Math.floor(random() * 30)
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)]
      const bytes = Buffer.from(text, 'utf8')
      let expected: CsvField[][] | 'error'
      try {
        expected = parseCsv(text)
      } catch {
        expected = 'error'
      }
      for (const cut of [() => bytes.length, oneByte, () => 1 + Math.floor(random() * 7)]) {
        const chunks = pieces(bytes, cut)
        if (expected === 'error') expect(scanError(chunks).code, JSON.stringify(text)).toBe('BAD_CSV')
        else expect(scan(chunks), JSON.stringify(text)).toEqual(expected)
      }
    }
  })

  it('keeps a CRLF split across two chunks one line ending, and a quoted field spanning chunks whole', () => {
    expect(scan([Buffer.from('a,b\r'), Buffer.from('\nc,d\r'), Buffer.from('\n')]).map((r) => r.map((f) => f.text))).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(scan(pieces(Buffer.from('"x,\r\n""y""",2\r\n'), oneByte))).toEqual([[{ text: 'x,\r\n"y"', quoted: true }, { text: '2', quoted: false }]])
  })

  it('decodes multi-byte characters cut anywhere', () => {
    const text = 'name\r\n"日本語, 😀"\r\nÅngström\r\n'
    expect(scan(pieces(Buffer.from(text), oneByte)).map((r) => r[0]!.text)).toEqual(['name', '日本語, 😀', 'Ångström'])
  })

  it('names the record and the line of a quoted field left open', () => {
    const text = 'a,b\r\n"x\r\ny",2\r\n"open\r\n'
    for (const chunks of [[Buffer.from(text)], pieces(Buffer.from(text), oneByte)]) {
      const error = scanError(chunks)
      expect([error.code, error.message]).toEqual(['BAD_CSV', 'fileId: CSV record 3 (line 4): unterminated quoted field'])
    }
  })

  it('names the record and the line of text after a closing quote, counting line breaks inside quotes', () => {
    const text = 'a\n"multi\r\nline"\n"b"c\n'
    for (const chunks of [[Buffer.from(text)], pieces(Buffer.from(text), oneByte)]) {
      expect(scanError(chunks).message).toBe('fileId: CSV record 3 (line 4): text after a closing quote')
    }
  })

  it('refuses a record larger than maxRowBytes without holding it, even when it never ends', () => {
    const big = Buffer.from(`a\n"${'x'.repeat(100)}`)
    for (const chunks of [[big], pieces(big, () => 16)]) {
      const error = scanError(chunks, 64)
      expect([error.code, error.message]).toEqual(['ROW_TOO_LARGE', 'fileId: CSV record 2 (line 2) is larger than 64 bytes'])
    }
    expect(scan([Buffer.from(`a\n${'x'.repeat(64)}\n`)], 64)).toHaveLength(2)
  })

  it('counts offsets from startOffset and gives each record its size', () => {
    const sizes: number[] = []
    const scanner = new CsvRecordScanner({ maxRowBytes: 100, startOffset: 3, onRecord: (record) => sizes.push(record.byteLength) })
    scanner.push(Buffer.from('ab,"c"\r\n'))
    scanner.push(Buffer.from('é'))
    scanner.end()
    expect(sizes).toEqual([6, 2])
  })
})
