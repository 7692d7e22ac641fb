import { Buffer } from 'node:buffer'
import { contentBytes } from './content-bytes.js'
import { CsvRecordScanner } from './csv-record-scanner.js'
import { CsvRowBuilder } from './csv-row-builder.js'
import { EventLoopPacer } from './event-loop-pacer.js'
import { FormatSniffer, type ImportTextFormat } from './format-sniffer.js'
import { JsonRowsScanner } from './json-rows-scanner.js'
import type { TransferColumn } from './transfer-column.js'
import { importFileError } from './transfer-error.js'

/**
 * Default largest row: 1 MiB of CSV record or JSON element. A row holds at most 4 KB × 30 (the largest factor)
 * of user data; the rest is headroom for quoting, escaping and system fields, while one row stays cheap to hold.
 */
export const DEFAULT_MAX_ROW_BYTES = 1024 * 1024

/** Default largest import file and decompressed content: 4 GiB, a guard against a runaway (or hostile) gzip. */
export const DEFAULT_IMPORT_MAX_BYTES = 4 * 1024 * 1024 * 1024

/** Default rows per batch: the most rows one table write takes. */
export const DEFAULT_BATCH_ROWS = 1000

/** Default most bytes of rows per batch, so that a batch of large rows stays small in memory too. */
export const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024

type Row = Record<string, unknown>

/** A format's incremental reader: content slices in, rows out through its callback. */
interface RowParser {
  push(slice: Buffer): void
  end(): void
}

/**
 * The options of {@link decodeImport}.
 *
 * @example
 * ```ts
 * const options: DecodeImportOptions = { columns, maxBytes: 1 << 30, onProgress: (n) => report(n / blobSize) }
 * ```
 */
export interface DecodeImportOptions {
  /** The table's columns, for typing CSV cells, e.g. `columns: [{ name: 'score', kind: 'number' }]`. */
  columns: readonly TransferColumn[]
  /** Largest row (CSV record or JSON element) in bytes, else `row_too_large`; default 1 MiB, e.g. `{ maxRowBytes: 256 * 1024 }`. */
  maxRowBytes?: number
  /** Largest file and largest decompressed content in bytes, else `too_large`; default 4 GiB, e.g. `{ maxBytes: 100 * 1024 * 1024 }`. */
  maxBytes?: number
  /** Most decompressed bytes per gzip byte past the first MiB, else `TOO_COMPRESSED`; default no limit, e.g. `{ maxRatio: 100 }`. */
  maxRatio?: number
  /** Most rows per yielded batch; default 1000, e.g. `{ batchRows: 500 }`. */
  batchRows?: number
  /** Most bytes of rows (as they were in the file) per batch; default 8 MiB, e.g. `{ batchBytes: 4 * 1024 * 1024 }`. */
  batchBytes?: number
  /**
   * Called as the file is consumed with the bytes read so far, compressed bytes for a gzipped file (so
   * progress = consumed / file size); about every 64 KiB and once at the end, e.g.
   * `onProgress: (consumed) => job.setProgress(consumed / file.size)`.
   */
  onProgress?: (compressedBytesConsumed: number) => void
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`decodeImport: ${name} must be a positive integer, got ${value}`)
  return value
}

function startsWithBom(bytes: Buffer, at: number): boolean {
  return bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf
}

/**
 * Reads the rows of an import file as it streams, in batches, with the rules imports always had:
 * - gzip is detected by its magic bytes `1f 8b` and decompressed on the fly;
 * - after a UTF-8 BOM, the first character that is not whitespace tells the format: `[` a JSON array of row
 *   objects, `{` a JSON object whose `rows` key (before or after any other keys, such as an export's `schema`)
 *   holds that array, anything else CSV;
 * - CSV: a header record naming columns, cells typed by the column's kind, `id`/`createdAt`/`updatedAt`
 *   ignored, unknown names kept as text (the store ignores them with a warning), blank lines skipped.
 *
 * Memory stays bounded (one row, one 64 KiB slice of content and the batches it completes), and the event loop
 * gets a turn after every ~10 ms of work or 1 MiB of content, even when the source hands over one huge chunk and
 * the consumer never awaits real I/O. Fails with a {@link TransferError} whose message names the place (byte offset, CSV record
 * and line, row index). A file without rows yields no batch.
 *
 * @example
 * ```ts
 * const { stream } = await blobs.read(file.blobId)
 * for await (const rows of decodeImport(stream, { columns, onProgress: (n) => setProgress(n / file.size) })) {
 *   store.importRows(botId, tableId, rows)
 * }
 * ```
 */
export async function* decodeImport(
  source: AsyncIterable<Uint8Array>,
  options: DecodeImportOptions,
): AsyncGenerator<Array<Record<string, unknown>>, void, undefined> {
  const maxRowBytes = positiveInteger('maxRowBytes', options.maxRowBytes, DEFAULT_MAX_ROW_BYTES)
  const maxBytes = positiveInteger('maxBytes', options.maxBytes, DEFAULT_IMPORT_MAX_BYTES)
  const batchRows = positiveInteger('batchRows', options.batchRows, DEFAULT_BATCH_ROWS)
  const batchBytes = positiveInteger('batchBytes', options.batchBytes, DEFAULT_BATCH_BYTES)

  const ready: Row[][] = []
  let batch: Row[] = []
  let bytesInBatch = 0
  const addRow = (row: Row, bytes: number): void => {
    batch.push(row)
    bytesInBatch += bytes
    if (batch.length >= batchRows || bytesInBatch >= batchBytes) {
      ready.push(batch)
      batch = []
      bytesInBatch = 0
    }
  }

  const startParser = (format: ImportTextFormat, prefix: Buffer): RowParser => {
    let start = startsWithBom(prefix, 0) ? 3 : 0
    // Imports always dropped a second BOM before CSV (the decoder's, then the CSV reader's).
    if (format === 'csv' && startsWithBom(prefix, start)) start += 3
    let parser: RowParser
    if (format === 'json') parser = new JsonRowsScanner({ maxRowBytes, startOffset: start, onRow: addRow })
    else {
      const rows = new CsvRowBuilder(options.columns)
      parser = new CsvRecordScanner({
        maxRowBytes,
        startOffset: start,
        onRecord: (record) => {
          const row = rows.build(record)
          if (row !== undefined) addRow(row, record.byteLength)
        },
      })
    }
    parser.push(prefix.subarray(start))
    return parser
  }

  const pacer = new EventLoopPacer()
  const sniffer = new FormatSniffer()
  let parser: RowParser | undefined
  // Until the format is known: the content so far, whitespace but for its last slice.
  let held: Buffer[] = []
  let heldBytes = 0
  const content = contentBytes(source, { maxBytes, onProgress: options.onProgress, ...(options.maxRatio !== undefined ? { maxRatio: options.maxRatio } : {}) })
  for await (const slice of content) {
    if (parser) parser.push(slice)
    else {
      held.push(Buffer.from(slice))
      heldBytes += slice.length
      const format = sniffer.push(slice)
      if (format !== undefined) {
        parser = startParser(format, Buffer.concat(held))
        held = []
      } else if (heldBytes > maxRowBytes) {
        throw importFileError('ROW_TOO_LARGE', `the file starts with more than ${maxRowBytes} bytes of whitespace`)
      }
    }
    while (ready.length > 0) yield ready.shift()!
    await pacer.pace(slice.length)
  }
  parser ??= startParser('csv', Buffer.concat(held))
  parser.end()
  if (batch.length > 0) ready.push(batch)
  while (ready.length > 0) yield ready.shift()!
}
