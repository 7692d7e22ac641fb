import { Buffer } from 'node:buffer'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { TableRecord } from '../store/index.js'
import { columnKind, type ColumnKind } from '../store/tables/index.js'
import { seededRandom } from 'botshelf/testing'
import { parseImport } from './whole-file-codecs.oracle.js'
import { decodeImport, type DecodeImportOptions } from './decode-import.js'
import type { TransferColumn, TransferColumnKind } from './transfer-column.js'
import { TransferError } from './transfer-error.js'

const schema = {
  type: 'object',
  properties: {
    score: { type: 'number', 'x-zui': { index: 1 } },
    name: { type: 'string', 'x-zui': { index: 0 } },
    ok: { type: 'boolean', 'x-zui': { index: 2 } },
    meta: { type: 'object', 'x-zui': { index: 3 } },
    tags: { type: 'array', 'x-zui': { index: 4 } },
    born: { type: 'string', format: 'date-time', 'x-zui': { index: 5 } },
  },
}
const record = { name: 'peopleTable', schema } as unknown as TableRecord
const columns: TransferColumn[] = Object.entries(schema.properties)
  .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
  .map(([name, column]) => ({ name, kind: columnKind(column as Parameters<typeof columnKind>[0]) }))

const csv = [
  'id,createdAt,updatedAt,name,score,ok,meta,tags,born,unknown',
  '1,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,"Ada, ""the first""",1.5,true,"{""a"":[1]}","[""x""]",2026-01-02T00:00:00Z,zzz',
  '2,,,"line\r\nbreak",-2,false,,,,',
  '3,,,"",,,"",""," ",""',
  ',,,日本語 😀,abc,yes,{not json},[1,  1e3 ,TRUE,x,',
  '',
  ',,,short',
  ',,,long,1,true,{},[],x,u,extra,fields',
].join('\r\n') + '\n\n'

const rows = [{ name: 'Ada, "the first"', score: 1.5, meta: { a: [1] }, id: 1 }, { name: 'line\nbreak', ok: null, tags: ['é', { '"}': '\\' }] }, {}]
const jsonTexts = {
  array: JSON.stringify(rows),
  object: JSON.stringify({ table: 'peopleTable', schema: { ...schema, description: ']}"'.repeat(100) }, rows, after: [{ rows: 1 }] }, null, 2),
  objectRowsFirst: `{"rows": ${JSON.stringify(rows)}, "schema": {"a": "b"}}`,
}

const inputs: Record<string, Buffer> = {
  csv: Buffer.from(csv),
  csvWithBom: Buffer.from(`\uFEFF${csv}`),
  csvLf: Buffer.from('name,score\nA,1\nB,2'),
  ...Object.fromEntries(Object.entries(jsonTexts).map(([name, text]) => [`json ${name}`, Buffer.from(text)])),
  jsonWithBomAndSpace: Buffer.from(`\uFEFF \r\n\t${jsonTexts.array}\n`),
  emptyJsonArray: Buffer.from('[]'),
  empty: Buffer.alloc(0),
  onlyBlankLines: Buffer.from('\n\r\n'),
  onlyHeader: Buffer.from('name,score\r\n'),
  csvAfterUnicodeSpace: Buffer.from('\u00a0name,score\n\u3000A,1'),
}

async function* chunksOf(bytes: Buffer, sizes: () => number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; ) {
    const size = Math.max(1, sizes())
    yield new Uint8Array(bytes.subarray(at, at + size)) // a plain Uint8Array copy, as a web stream gives
    at += size
  }
}

async function decodeBatches(source: AsyncIterable<Uint8Array>, options: Partial<DecodeImportOptions> = {}): Promise<Array<Array<Record<string, unknown>>>> {
  const batches: Array<Array<Record<string, unknown>>> = []
  for await (const batch of decodeImport(source, { columns, ...options })) batches.push(batch)
  return batches
}

async function decodeError(source: AsyncIterable<Uint8Array>, options: Partial<DecodeImportOptions> = {}): Promise<TransferError> {
  try {
    await decodeBatches(source, options)
  } catch (error) {
    if (error instanceof TransferError) return error
    throw error
  }
  throw new Error('expected a TransferError')
}

describe('decodeImport', () => {
  it('types cells by the same kinds as the store (a kind added to one must be added to the other)', () => {
    const sameKinds: [ColumnKind, TransferColumnKind] extends [TransferColumnKind, ColumnKind] ? true : false = true
    expect(sameKinds).toBe(true)
  })

  it('keeps CSV header names of prototype members, "__proto__" included, as keys for the store to judge', async () => {
    const text = Buffer.from('name,__proto__,toString\r\nAda,{"polluted":true},x\r\n')
    const row = (await decodeBatches(chunksOf(text, () => 64)))[0]?.[0]
    expect(Object.keys(row!)).toEqual(['name', '__proto__', 'toString'])
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(row!['toString']).toBe('x')
  })

  it('reads every format, gzipped or not, exactly as parseImport does, however the input is cut', async () => {
    const random = seededRandom(20260101)
    for (const [name, plain] of Object.entries(inputs)) {
      const expected = parseImport(plain, record)
      for (const [variant, bytes] of [['plain', plain], ['gzip', gzipSync(plain)]] as const) {
        for (const cut of [() => bytes.length, () => 1, () => 1 + Math.floor(random() * 50)]) {
          const batches = await decodeBatches(chunksOf(bytes, cut), { batchRows: 2 })
          expect(batches.flat(), `${name} ${variant}`).toEqual(expected)
          expect(batches.every((batch) => batch.length >= 1 && batch.length <= 2)).toBe(true)
        }
      }
    }
    // The comparison is not vacuous: typed cells, kept text, left-out keys.
    expect(parseImport(inputs['csv']!, record)[0]).toEqual({ name: 'Ada, "the first"', score: 1.5, ok: true, meta: { a: [1] }, tags: ['x'], born: '2026-01-02T00:00:00Z', unknown: 'zzz' })
    expect(parseImport(inputs['csv']!, record)[3]).toEqual({ name: '日本語 😀', score: 'abc', ok: 'yes', meta: '{not json}', tags: '[1', born: '  1e3 ', unknown: 'TRUE' })
  })

  it('cuts batches at batchRows (1000 by default) and at batchBytes', async () => {
    const many = Buffer.from(`name\n${Array.from({ length: 2500 }, (_, i) => `n${i}`).join('\n')}`)
    expect((await decodeBatches(chunksOf(many, () => 4096))).map((b) => b.length)).toEqual([1000, 1000, 500])
    const five = Buffer.from('[{"a":1},{"a":2},{"a":3},{"a":4},{"a":5}]')
    expect((await decodeBatches(chunksOf(five, () => 3), { batchRows: 2 })).map((b) => b.length)).toEqual([2, 2, 1])
    expect((await decodeBatches(chunksOf(five, () => 3), { batchBytes: 14 })).map((b) => b.length)).toEqual([2, 2, 1])
  })

  it('drops one BOM before JSON and two before CSV, as parseImport did', async () => {
    const csvTwice = Buffer.from('\uFEFF\uFEFFname\nA')
    expect((await decodeBatches(chunksOf(csvTwice, () => 1))).flat()).toEqual([{ name: 'A' }])
    expect(parseImport(csvTwice, record)).toEqual([{ name: 'A' }])
    const jsonTwice = Buffer.from('\uFEFF\uFEFF[]')
    expect((await decodeError(chunksOf(jsonTwice, () => 1))).message).toBe("fileId: the file is not valid JSON at byte 3 (expected '[' or '{', found byte 0xef)")
    expect(() => parseImport(jsonTwice, record)).toThrow('not valid JSON')
  })

  it('reports the input consumed, compressed bytes for gzip, up to the file size', async () => {
    const plain = Buffer.from(`name,score\n${Array.from({ length: 30_000 }, (_, i) => `row number ${i},${i}`).join('\n')}`)
    for (const bytes of [plain, gzipSync(plain)]) {
      const seen: number[] = []
      await decodeBatches(chunksOf(bytes, () => 10_000), { onProgress: (consumed) => seen.push(consumed) })
      expect(seen.length).toBeGreaterThan(2)
      expect(seen.every((value, i) => i === 0 || value > seen[i - 1]!)).toBe(true)
      expect(seen.at(-1)).toBe(bytes.length)
    }
  })

  it('fails with messages that name the place', async () => {
    const cases: Array<[string | Buffer, string, string]> = [
      ['\uFEFF[{"a":1},]', 'BAD_JSON', "fileId: the file is not valid JSON at byte 12 (expected a row, found ']')"],
      ['{"rows": [1]}', 'NOT_ROWS', 'fileId: a JSON import is an array of row objects or { "rows": [...] }; row 0 (at byte 10) is a number'],
      ['\u00a0[]', 'BAD_JSON', "fileId: the file is not valid JSON at byte 0 (expected '[' or '{', found byte 0xc2)"],
      ['\uFEFFname\n"a"b', 'BAD_CSV', 'fileId: CSV record 2 (line 2): text after a closing quote'],
      ['name\nx\n"never closed\n\n', 'BAD_CSV', 'fileId: CSV record 3 (line 3): unterminated quoted field'],
      [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]), 'NOT_GZIP', 'fileId: the file looks gzipped but does not decompress (unexpected end of file)'],
      [Buffer.from([0x1f, 0x8b, 0x63, 0x00, 0x01]), 'NOT_GZIP', 'fileId: the file looks gzipped but does not decompress (unknown compression method)'],
    ]
    for (const [input, code, message] of cases) {
      const bytes = Buffer.from(input)
      for (const cut of [() => bytes.length, () => 1]) {
        const error = await decodeError(chunksOf(bytes, cut))
        expect([error.code, error.message], String(input)).toEqual([code, message])
      }
    }
  })

  it('refuses a file or decompressed content larger than maxBytes, and a row larger than maxRowBytes', async () => {
    const plain = Buffer.from(`name\n${'x\n'.repeat(1000)}`)
    const tooLong = await decodeError(chunksOf(plain, () => 100), { maxBytes: 1000 })
    expect([tooLong.code, tooLong.message]).toEqual(['TOO_LARGE', 'fileId: the file is larger than 1000 bytes'])
    const bomb = gzipSync(Buffer.alloc(1 << 20, 0x0a))
    expect(bomb.length).toBeLessThan(2000)
    const inflated = await decodeError(chunksOf(bomb, () => 100), { maxBytes: 100_000 })
    expect([inflated.code, inflated.message]).toEqual(['TOO_LARGE', 'fileId: the decompressed content is larger than 100000 bytes'])
    const wide = await decodeError(chunksOf(Buffer.from(`name\nok\n${'x'.repeat(5000)}`), () => 100), { maxRowBytes: 4096 })
    expect([wide.code, wide.message]).toEqual(['ROW_TOO_LARGE', 'fileId: CSV record 3 (line 3) is larger than 4096 bytes'])
    const blank = await decodeError(chunksOf(Buffer.from(' '.repeat(5000)), () => 100), { maxRowBytes: 4096 })
    expect([blank.code, blank.message]).toEqual(['ROW_TOO_LARGE', 'fileId: the file starts with more than 4096 bytes of whitespace'])
  })

  it('lets an error of the source through unchanged, gzipped or not, and closes the source when it stops early', async () => {
    for (const head of [Buffer.from('name\nA\n'), gzipSync(Buffer.from('name\nA\n'.repeat(1000))).subarray(0, 100)]) {
      const failure = new Error('disk gone')
      const failing = async function* () {
        yield new Uint8Array(head)
        throw failure
      }
      await expect(decodeBatches(failing())).rejects.toBe(failure)
    }
    for (const bytes of [Buffer.from(csv.repeat(50)), gzipSync(Buffer.from(`name\n${'A\n'.repeat(100_000)}`))]) {
      let closed = false
      const tracked = async function* () {
        try {
          yield* chunksOf(bytes, () => 64)
        } finally {
          closed = true
        }
      }
      for await (const batch of decodeImport(tracked(), { columns, batchRows: 1 })) {
        expect(batch).toHaveLength(1)
        break
      }
      await new Promise((resolve) => setImmediate(resolve))
      expect(closed).toBe(true)
    }
  })

  it('rejects options that are not positive integers', async () => {
    await expect(decodeBatches(chunksOf(Buffer.from('[]'), () => 1), { batchRows: 0 })).rejects.toThrow('decodeImport: batchRows must be a positive integer, got 0')
  })
})
