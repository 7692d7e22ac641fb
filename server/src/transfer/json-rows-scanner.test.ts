import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { seededRandom } from 'botshelf/testing'
import { JsonRowsScanner } from './json-rows-scanner.js'
import { TransferError } from './transfer-error.js'

function pieces(bytes: Buffer, sizes: () => number): Buffer[] {
  const out: Buffer[] = []
  for (let at = 0; at < bytes.length; ) {
    const size = Math.max(1, sizes())
    out.push(bytes.subarray(at, at + size))
    at += size
  }
  return out
}

function scan(chunks: Buffer[], maxRowBytes = 1 << 20): unknown[] {
  const rows: unknown[] = []
  const scanner = new JsonRowsScanner({ maxRowBytes, onRow: (row) => rows.push(row) })
  for (const chunk of chunks) scanner.push(chunk)
  scanner.end()
  return rows
}

function scanError(text: string, maxRowBytes?: number): TransferError {
  const failures = [[Buffer.from(text)], pieces(Buffer.from(text), () => 1)].map((chunks) => {
    try {
      scan(chunks, maxRowBytes)
    } catch (error) {
      if (error instanceof TransferError) return error
      throw error
    }
    throw new Error(`expected a TransferError for ${text}`)
  })
  // Cut into single bytes or not, the same error.
  expect(failures[1]!.message).toBe(failures[0]!.message)
  return failures[0]!
}

/** A random JSON value with the characters a scanner could trip on: quotes, escapes, brackets, commas, unicode. */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 2 ? 4 : 6))
  const strings = ['', 'a', '"', '\\', '\\"', '}', ']', '{[', ',', ':', 'é', '😀', '\n', '\u0001', 'rows']
  switch (pick) {
    case 0:
      return strings[Math.floor(random() * strings.length)]! + strings[Math.floor(random() * strings.length)]!
    case 1:
      return Math.floor(random() * 2000) / 7 - 100
    case 2:
      return [true, false, null][Math.floor(random() * 3)]
    case 3:
      return 'plain'
    case 4:
      return Array.from({ length: Math.floor(random() * 3) }, () => randomValue(random, depth + 1))
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, (_, i) => [`${strings[i]}k${i}`, randomValue(random, depth + 1)]))
  }
}

function randomRow(random: () => number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [['name', 'x"}', '\\', 'é'][i]!, randomValue(random, 1)]))
}

/** JSON text with random whitespace between tokens (re-indented by JSON.stringify with a random indent). */
function withWhitespace(random: () => number, value: unknown): string {
  return JSON.stringify(value, null, [0, 1, '\t', '\r\n '][Math.floor(random() * 4)] as number | string)
}

describe('JsonRowsScanner', () => {
  it('reads the rows of a top-level array or of a top-level rows key with other keys before and after, however the bytes are cut', () => {
    const random = seededRandom(8259)
    for (let n = 0; n < 400; n++) {
      const rows = Array.from({ length: Math.floor(random() * 5) }, () => randomRow(random))
      const texts = [
        withWhitespace(random, rows),
        withWhitespace(random, { table: 'aTable', schema: randomValue(random, 0), rows, after: randomValue(random, 0) }),
        withWhitespace(random, { 'r\\ows': 1, rows, '': '\\', '"q': 0, number: -1.5e3, text: 'x', flag: false, nothing: null, list: [] }),
      ]
      for (const text of texts) {
        const bytes = Buffer.from(text)
        for (const cut of [() => bytes.length, () => 1, () => 1 + Math.floor(random() * 9)]) {
          expect(scan(pieces(bytes, cut)), text).toEqual(rows)
        }
      }
    }
  })

  it('starts each key afresh when a row ended just after an escape cut by a chunk', () => {
    // The first chunk ends on a backslash inside a row's string; the row ends in the next chunk, then a key follows.
    for (const key of ['""', '"\\"q"', '"k"']) {
      const chunks = ['{"rows":[{"a":"\\', `\\"}],${key}:1}`].map((text) => Buffer.from(text))
      expect(scan(chunks), key).toEqual([{ a: '\\' }])
    }
  })

  it('recognizes an escaped "rows" key and ignores a longer one', () => {
    expect(scan([Buffer.from('{"r\\u006fws":[{"a":1}]}')])).toEqual([{ a: 1 }])
    expect(scanError('{"rowsx":[{"a":1}]}').code).toBe('NOT_ROWS')
  })

  it('skips a value larger than maxRowBytes without holding it, however it is cut', () => {
    const schema = { properties: { big: { description: 'x"]}'.repeat(5000) } }, list: [[[{ a: '\\' }]]] }
    const text = Buffer.from(JSON.stringify({ schema, rows: [{ a: 1 }], after: 'y'.repeat(3000) }))
    for (const cut of [() => text.length, () => 1, () => 333]) expect(scan(pieces(text, cut), 1000)).toEqual([{ a: 1 }])
  })

  it('names where the JSON breaks, as a byte offset', () => {
    const cases: Array<[string, string]> = [
      ['[{"a":1},]', 'the file is not valid JSON at byte 9 (expected a row, found \']\')'],
      ['[{"a":1}', 'the file is not valid JSON at byte 8 (unexpected end of the file)'],
      ['[{"a":1} {"b":2}]', "the file is not valid JSON at byte 9 (expected ',' or ']' after row 0, found '{')"],
      ['[{"a":1}] x', "the file is not valid JSON at byte 10 (unexpected 'x' after the end of the JSON value)"],
      ['{"a" 1, "rows": []}', "the file is not valid JSON at byte 5 (expected ':', found '1')"],
      ['{"a": 1 "rows": []}', "the file is not valid JSON at byte 8 (expected ',' or '}', found '\"')"],
      ['{"schema": {"a": [1}}, "rows": []}', "the file is not valid JSON at byte 19 (unexpected '}')"],
      ['{"schema": x, "rows": []}', "the file is not valid JSON at byte 11 (expected a value, found 'x')"],
      ['{,}', 'the file is not valid JSON at byte 1 (expected a key or \'}\', found \',\')'],
      ['\u00a0[]', 'the file is not valid JSON at byte 0 (expected \'[\' or \'{\', found byte 0xc2)'],
    ]
    for (const [text, message] of cases) {
      const error = scanError(text)
      expect([error.code, error.message], text).toEqual(['BAD_JSON', `fileId: ${message}`])
    }
  })

  it('names the row that JSON.parse refuses, and a skipped value it refuses', () => {
    const row = scanError('[{"a":1},\n {"a": tru}]')
    expect(row.code).toBe('BAD_JSON')
    expect(row.message).toMatch(/^fileId: the file is not valid JSON at byte 11 \(row 1: .+\)$/)
    expect(row.cause).toBeInstanceOf(SyntaxError)
    expect(scanError('{"schema": {"a": tru}, "rows": []}').message).toMatch(/^fileId: the file is not valid JSON at byte 11 \(a value: .+\)$/)
    expect(scanError('{"schema": 01, "rows": []}').message).toMatch(/at byte 11 \(a value: /)
    expect(scanError('{"k\\x": 1, "rows": []}').message).toMatch(/at byte 1 \(a key: /)
  })

  it('refuses rows that are not objects, naming the row', () => {
    const NOT_ROWS = 'fileId: a JSON import is an array of row objects or { "rows": [...] }; '
    const cases: Array<[string, string]> = [
      ['[{"a":1}, [1]]', 'row 1 (at byte 10) is an array'],
      ['[null]', 'row 0 (at byte 1) is null'],
      ['[{}, {}, "x"]', 'row 2 (at byte 9) is a string'],
      ['[-1]', 'row 0 (at byte 1) is a number'],
      ['[true]', 'row 0 (at byte 1) is a boolean'],
      ['{"rows": {"a": 1}}', '"rows" (at byte 9) is an object'],
      ['{"rows": null}', '"rows" (at byte 9) is null'],
      ['{"table": "t", "schema": {}}', 'the top-level object has no "rows" key'],
      ['{}', 'the top-level object has no "rows" key'],
      ['{"rows": [], "rows": []}', '"rows" appears twice (the second at byte 21)'],
    ]
    for (const [text, detail] of cases) {
      const error = scanError(text)
      expect([error.code, error.message], text).toEqual(['NOT_ROWS', NOT_ROWS + detail])
    }
  })

  it('refuses a row larger than maxRowBytes without holding it, even when it never ends', () => {
    const text = `[{"a":1}, {"a":"${'x'.repeat(200)}`
    const error = scanError(text, 100)
    expect([error.code, error.message]).toEqual(['ROW_TOO_LARGE', 'fileId: row 1 (at byte 10) is larger than 100 bytes'])
    expect(scan([Buffer.from(`[{"a":"${'x'.repeat(92)}"}]`)], 100)).toHaveLength(1)
  })

  it('counts byte offsets from startOffset, multi-byte characters included', () => {
    const scanner = new JsonRowsScanner({ maxRowBytes: 100, startOffset: 3, onRow: () => undefined })
    // é is 2 bytes: the x is byte 11 of this text, 14 of the content.
    expect(() => scanner.push(Buffer.from('[{"é":1}, x]'))).toThrow('at byte 14 ')
  })
})
