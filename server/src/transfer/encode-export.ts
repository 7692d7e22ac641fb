import { Buffer } from 'node:buffer'
import { Readable, pipeline } from 'node:stream'
import { createGzip } from 'node:zlib'
import { csvRecord } from './csv.js'
import { EventLoopPacer } from './event-loop-pacer.js'
import { SYSTEM_COLUMNS, type TransferColumn } from './transfer-column.js'

/** About how large the chunks of an export are, in bytes. */
export const EXPORT_CHUNK_BYTES = 64 * 1024

/**
 * The options of {@link encodeExport}.
 *
 * @example
 * ```ts
 * const options: EncodeExportOptions = { format: 'csv', compress: true, columns, tableName: 'ordersTable', schema }
 * ```
 */
export interface EncodeExportOptions {
  /** `format: 'csv'` (header `id,createdAt,updatedAt,<columns>`, CRLF) or `format: 'json'` (`{ table, schema, rows }`). */
  format: 'csv' | 'json'
  /** Gzip the output, e.g. `{ compress: true }`. */
  compress: boolean
  /** The table's columns in `x-zui` index order, the order of the CSV header and JSON keys, e.g. `columns: [{ name: 'name', kind: 'string' }]`. */
  columns: readonly TransferColumn[]
  /** The table's name, the JSON export's `table`, e.g. `{ tableName: 'ordersTable' }`. */
  tableName: string
  /** The table's schema, the JSON export's `schema` (as `JSON.stringify` writes it), e.g. `{ schema: record.schema }`. */
  schema: unknown
  /**
   * JSON only: each row carries its `computed` statuses (and `stale` columns when some wait), as the wire's rows
   * do, so that an import keeps them (decision 1425), e.g. `{ computedState: true }` for a table with computed columns.
   */
  computedState?: boolean
  /** CSV only: write formula-leading text as it is instead of neutralising it (decision 1462), e.g. `{ rawFormulas: true }`. */
  rawFormulas?: boolean
}

/** Collects small pieces of text into UTF-8 chunks of about {@link EXPORT_CHUNK_BYTES}. */
class TextChunker {
  private pending: string[] = []
  private pendingLength = 0

  /** Adds a piece; returns a chunk once enough text is pending. */
  add(piece: string): Buffer | undefined {
    this.pending.push(piece)
    this.pendingLength += piece.length
    return this.pendingLength >= EXPORT_CHUNK_BYTES ? this.flush() : undefined
  }

  /** The pending text as a chunk (empty when nothing is pending). */
  flush(): Buffer {
    const chunk = Buffer.from(this.pending.join(''), 'utf8')
    this.pending = []
    this.pendingLength = 0
    return chunk
  }
}

/** The export's bytes, uncompressed: rows are read only as the consumer pulls chunks. */
async function* exportBytes(rows: AsyncIterable<Record<string, unknown>>, options: EncodeExportOptions): AsyncGenerator<Buffer, void, undefined> {
  const pacer = new EventLoopPacer()
  const chunker = new TextChunker()
  const names = [...SYSTEM_COLUMNS, ...options.columns.map((column) => column.name)]
  let rowText: (row: Record<string, unknown>, first: boolean) => string
  let end: string
  if (options.format === 'csv') {
    const formulas = { rawFormulas: options.rawFormulas === true }
    chunker.add(`${csvRecord(names, formulas)}\r\n`)
    rowText = (row) => `${csvRecord(names.map((name) => row[name]), formulas)}\r\n`
    end = ''
  } else {
    // The exact text of `JSON.stringify({ table, schema, rows })`, the rows written one by one: stringify the
    // object with no rows and write the rows inside its empty array (a `schema` of undefined is left out, as before).
    chunker.add(JSON.stringify({ table: options.tableName, schema: options.schema, rows: [] }).slice(0, -2))
    rowText = (row, first) => {
      const out: Record<string, unknown> = { id: row['id'], createdAt: row['createdAt'], updatedAt: row['updatedAt'] }
      for (const column of options.columns) out[column.name] = row[column.name]
      if (options.computedState === true) {
        out['computed'] = row['computed'] ?? {}
        if (Array.isArray(row['stale']) && row['stale'].length > 0) out['stale'] = row['stale']
      }
      return first ? JSON.stringify(out) : `,${JSON.stringify(out)}`
    }
    end = ']}'
  }
  let first = true
  for await (const row of rows) {
    const chunk = chunker.add(rowText(row, first))
    first = false
    if (chunk === undefined) continue
    yield chunk
    await pacer.pace(chunk.length)
  }
  chunker.add(end)
  const last = chunker.flush()
  if (last.length > 0) yield last
}

/** The chunks through a streaming gzip; the input is pulled only as the compressed output is. */
async function* gzipped(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer, void, undefined> {
  const compressor = createGzip({ chunkSize: EXPORT_CHUNK_BYTES })
  // An error of the rows reaches the loop below through the compressor, which pipeline destroys with it.
  pipeline(Readable.from(chunks, { objectMode: false, highWaterMark: 1 }), compressor, () => undefined)
  for await (const chunk of compressor) yield chunk as Buffer
}

/**
 * Writes a table export as it streams: exactly the bytes the in-request export wrote — CSV with the header
 * `id,createdAt,updatedAt,<columns>` and CRLF after every record, or JSON `{"table":…,"schema":…,"rows":[…]}` —
 * gzipped on the fly when `compress`. Chunks are about 64 KiB; rows are read only as chunks are pulled
 * (backpressure), so memory stays bounded whatever the table's size, and no step holds the event loop for long.
 *
 * @example
 * ```ts
 * const written = await blobs.write(
 *   encodeExport(rowsInIdOrder(), { format: 'json', compress: true, columns, tableName: record.name, schema: record.schema }),
 * )
 * ```
 */
export async function* encodeExport(
  rows: AsyncIterable<Record<string, unknown>>,
  options: EncodeExportOptions,
): AsyncGenerator<Uint8Array, void, undefined> {
  const text = exportBytes(rows, options)
  if (options.compress) yield* gzipped(text)
  else yield* text
}
