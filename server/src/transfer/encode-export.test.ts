import { Buffer } from 'node:buffer'
import { gunzipSync, gzipSync } from 'node:zlib'
import { beforeEach, describe, expect, it } from 'vitest'
import { runMigrations } from '../store/sqlite/migrations.js'
import { openDatabase } from '../store/sqlite/connect.js'
import { columnKind } from '../store/tables/index.js'
import { tablesMigrations } from '../store/sqlite/tables/migrations.js'
import type { TableRecord } from '../store/index.js'
import { SqliteTablesStore } from '../store/sqlite/tables/tables-port.js'
import { parseImport, renderExport } from './whole-file-codecs.oracle.js'
import { decodeImport } from './decode-import.js'
import { encodeExport, EXPORT_CHUNK_BYTES, type EncodeExportOptions } from './encode-export.js'
import type { TransferColumn } from './transfer-column.js'

const BOT = 'bot_1'
let store: SqliteTablesStore

beforeEach(() => {
  const db = openDatabase(':memory:')
  runMigrations(db, tablesMigrations)
  let clock = Date.parse('2026-01-01T00:00:00Z')
  store = new SqliteTablesStore(db, { now: () => new Date((clock += 1000)) })
})

function columnsOf(record: TableRecord): TransferColumn[] {
  return Object.entries(record.schema.properties)
    .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
    .map(([name, column]) => ({ name, kind: columnKind(column) }))
}

/** Every row in id order, page by page, as the export job will read them. */
async function* rowsOf(record: TableRecord): AsyncGenerator<Record<string, unknown>> {
  let after = 0
  for (;;) {
    const { rows, hasMore } = store.findRows(BOT, record.id, { filter: { id: { $gt: after } }, orderBy: 'id', limit: 1000 })
    for (const row of rows) yield row
    if (!hasMore || rows.length === 0) return
    after = rows[rows.length - 1]!.id as number
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const out: Buffer[] = []
  for await (const chunk of chunks) out.push(Buffer.from(chunk))
  return out
}

function optionsFor(record: TableRecord, format: 'csv' | 'json', compress: boolean): EncodeExportOptions {
  return { format, compress, columns: columnsOf(record), tableName: record.name, schema: record.schema }
}

const people = {
  name: { type: 'string' },
  score: { type: 'number' },
  ok: { type: 'boolean' },
  meta: { type: 'object', additionalProperties: true },
  tags: { type: 'array', items: { type: 'string' } },
  born: { type: 'string', format: 'date-time' },
  note: { type: 'string', description: 'a "quoted", multi-line\ndescription 😀' },
}

const peopleRows = [
  { name: 'Ada, "the first"', score: 1.5, ok: true, meta: { a: [1], 'q"': 'x,y\r\n' }, tags: ['x', 'y,z'], born: '2026-01-02T03:04:05Z', note: '' },
  { name: 'line\nbreak', score: -2, ok: false, note: 'crlf\r\nand cr\r' },
  { name: '  padded  ', score: 0, meta: {}, tags: [] },
  { name: '日本語 😀 Ångström', note: 'tab\tand "quotes"' },
  { name: null, score: null, ok: null, meta: null, tags: null, born: null, note: null },
  {},
]

describe('encodeExport', () => {
  it('writes the very bytes renderExport wrote, in CSV and JSON, then gzip of them', async () => {
    store.createTable(BOT, { name: 'peopleTable', schema: { type: 'object', properties: people } })
    store.createRows(BOT, 'peopleTable', peopleRows)
    store.createTable(BOT, { name: 'emptyTable', schema: { type: 'object', properties: { only: { type: 'string' } } } })
    store.createTable(BOT, { name: 'bigTable', schema: { type: 'object', properties: { text: { type: 'string' }, n: { type: 'number' } } } })
    for (let page = 0; page < 3; page++) {
      store.createRows(BOT, 'bigTable', Array.from({ length: 1000 }, (_, i) => ({ text: `row ${page * 1000 + i}, "é" ${'x'.repeat(i % 50)}`, n: i / 3 })))
    }
    for (const name of ['peopleTable', 'emptyTable', 'bigTable']) {
      const record = store.loadTable(BOT, name)
      for (const format of ['csv', 'json'] as const) {
        const expected = Buffer.from(renderExport(store, BOT, record, format), 'utf8')
        const plain = Buffer.concat(await collect(encodeExport(rowsOf(record), optionsFor(record, format, false))))
        expect(plain.equals(expected), `${name} ${format}`).toBe(true)
        const compressed = Buffer.concat(await collect(encodeExport(rowsOf(record), optionsFor(record, format, true))))
        expect(gunzipSync(compressed).equals(expected), `${name} ${format} gzip`).toBe(true)
        // Same deflate stream as the one-shot gzip of the request-time export.
        expect(compressed.equals(gzipSync(expected)), `${name} ${format} gzip bytes`).toBe(true)
      }
    }
    // Not vacuous: the export holds the tricky values.
    const csv = renderExport(store, BOT, store.loadTable(BOT, 'peopleTable'), 'csv')
    expect(csv.split('\r\n')[0]).toBe('id,createdAt,updatedAt,name,score,ok,meta,tags,born,note')
    expect(csv).toContain('"Ada, ""the first""",1.5,true,"{""a"":[1],""q\\"""":""x,y\\r\\n""}"')
  })

  it('leaves out a schema that is undefined, as JSON.stringify did', async () => {
    async function* one() {
      yield { id: 1, createdAt: 'c', updatedAt: 'u', a: undefined, b: 'x' }
    }
    const columns: TransferColumn[] = [{ name: 'a', kind: 'string' }, { name: 'b', kind: 'string' }]
    const text = Buffer.concat(await collect(encodeExport(one(), { format: 'json', compress: false, columns, tableName: 't', schema: undefined }))).toString()
    expect(text).toBe('{"table":"t","rows":[{"id":1,"createdAt":"c","updatedAt":"u","b":"x"}]}')
  })

  it('writes chunks of about 64 KiB', async () => {
    store.createTable(BOT, { name: 'bigTable', schema: { type: 'object', properties: { text: { type: 'string' } } } })
    store.createRows(BOT, 'bigTable', Array.from({ length: 1000 }, (_, i) => ({ text: `${i} ${'y'.repeat(500)}` })))
    const record = store.loadTable(BOT, 'bigTable')
    for (const compress of [false, true]) {
      const chunks = await collect(encodeExport(rowsOf(record), optionsFor(record, 'csv', compress)))
      expect(chunks.length).toBeGreaterThan(compress ? 0 : 5)
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(EXPORT_CHUNK_BYTES + 1024)
      for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeGreaterThanOrEqual(compress ? 1 : EXPORT_CHUNK_BYTES)
    }
  })

  it('reads rows only as chunks are pulled, and closes the rows when the consumer stops', async () => {
    for (const compress of [false, true]) {
      let pulled = 0
      let closed = false
      async function* endless() {
        try {
          for (let id = 1; ; id++) {
            pulled++
            yield { id, createdAt: 'c', updatedAt: 'u', text: `row ${id} ${Math.random()}` }
          }
        } finally {
          closed = true
        }
      }
      const columns: TransferColumn[] = [{ name: 'text', kind: 'string' }]
      const chunks = encodeExport(endless(), { format: 'csv', compress, columns, tableName: 't', schema: {} })
      const first = await chunks.next()
      expect(first.done).toBe(false)
      // Rows of about 40 bytes: one 64 KiB chunk is some 1600 rows; gzip reads a little ahead, not endlessly.
      // Kept real: a window in which an encoder that read on would (gzip works on the thread pool, fake time would
      // not run it); nothing happens when the code is right, so there is no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(pulled).toBeGreaterThan(1000)
      expect(pulled).toBeLessThan(compress ? 50_000 : 2000)
      await chunks.return(undefined)
      await new Promise((resolve) => setImmediate(resolve))
      expect(closed).toBe(true)
    }
  })

  it('fails with the error of the rows, gzipped or not', async () => {
    for (const compress of [false, true]) {
      const failure = new Error('database gone')
      async function* failing() {
        yield { id: 1, createdAt: 'c', updatedAt: 'u', text: 'x'.repeat(100_000) }
        throw failure
      }
      const columns: TransferColumn[] = [{ name: 'text', kind: 'string' }]
      await expect(collect(encodeExport(failing(), { format: 'json', compress, columns, tableName: 't', schema: {} }))).rejects.toBe(failure)
    }
  })

  it('gives back, through decodeImport, what parseImport read from renderExport', async () => {
    store.createTable(BOT, { name: 'peopleTable', schema: { type: 'object', properties: people } })
    store.createRows(BOT, 'peopleTable', peopleRows)
    const record = store.loadTable(BOT, 'peopleTable')
    for (const format of ['csv', 'json'] as const) {
      const rows: unknown[] = []
      for await (const batch of decodeImport(encodeExport(rowsOf(record), optionsFor(record, format, true)), { columns: columnsOf(record) })) rows.push(...batch)
      const expected = parseImport(gzipSync(renderExport(store, BOT, record, format)), record)
      expect(rows).toEqual(expected)
      expect(rows).toHaveLength(peopleRows.length)
    }
  })
})
