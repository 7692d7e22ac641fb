import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import { CsvRecordScanner, JsonRowsScanner } from '../../transfer/index.js'
import { DataFileError, UsageError } from '../io.js'

/** The formats `tables import` reads. */
export type ImportFormat = 'csv' | 'json'

/** A CSV cell as read: its text, or `null` for an empty unquoted field (no value). */
export type CsvCell = string | null

/** Largest row accepted from a file, in bytes: the same bound as the service's own imports. */
const MAX_ROW_BYTES = 1024 * 1024

/**
 * The format and compression of an import file from its name (`.csv`, `.json`, either with `.gz`), or the
 * `--format` given. A name it cannot read is a `UsageError` saying what is accepted.
 *
 * @example
 * ```ts
 * importFormatOf('people.csv.gz', undefined) // { format: 'csv', gzip: true }
 * ```
 */
export function importFormatOf(path: string, format: string | undefined): { format: ImportFormat; gzip: boolean } {
  const gzip = /\.gz$/i.test(path)
  const name = path.replace(/\.gz$/i, '')
  if (format !== undefined) {
    if (format !== 'csv' && format !== 'json') throw new UsageError(`--format must be csv or json, received ${JSON.stringify(format)}`)
    return { format, gzip }
  }
  if (/\.csv$/i.test(name)) return { format: 'csv', gzip }
  if (/\.json$/i.test(name)) return { format: 'json', gzip }
  throw new UsageError(`cannot tell the format of ${JSON.stringify(path)}: expected a .csv, .json, .csv.gz or .json.gz file, or --format csv|json`)
}

/**
 * Reads the rows of an import file as they stream in (decompressing `.gz`): CSV rows as `{ column: text or
 * null }` under the header record, JSON rows (an array of objects, or `{ "rows": [...] }`) as parsed.
 * `onBytes` sees every chunk read from the file (compressed bytes), for progress against the file's size.
 *
 * @example
 * ```ts
 * for await (const batch of readImportRows('people.csv', 'csv', false, signal, (n) => progress.advance(n))) console.log(batch.length)
 * ```
 */
export async function* readImportRows(
  path: string,
  format: ImportFormat,
  gzip: boolean,
  signal: AbortSignal,
  onBytes: (bytes: number) => void,
): AsyncGenerator<Array<Record<string, unknown>>> {
  let pending: Array<Record<string, unknown>> = []
  let header: string[] | undefined
  let dataRows = 0
  const scanner =
    format === 'csv'
      ? new CsvRecordScanner({
          maxRowBytes: MAX_ROW_BYTES,
          onRecord: (record) => {
            if (!header) {
              header = Array.from({ length: record.fieldCount }, (_, i) => record.fieldText(i).replace(/^\uFEFF/, ''))
              return
            }
            if (record.fieldCount === 1 && record.byteLength === 0) return // a blank line
            dataRows += 1
            if (record.fieldCount !== header.length) {
              throw new DataFileError(`${path}: row ${dataRows} (line ${record.line}) has ${record.fieldCount} fields, the header has ${header.length}`)
            }
            const row: Record<string, CsvCell> = {}
            header.forEach((name, i) => (row[name] = record.fieldText(i) === '' && !record.fieldQuoted(i) ? null : record.fieldText(i)))
            pending.push(row)
          },
        })
      : new JsonRowsScanner({ maxRowBytes: MAX_ROW_BYTES, onRow: (row) => pending.push(row) })
  const file = createReadStream(path, { signal })
  file.on('data', (chunk) => onBytes((chunk as Buffer).byteLength))
  const content: AsyncIterable<Buffer> = gzip ? file.pipe(createGunzip()) : file
  try {
    for await (const chunk of content) {
      scanner.push(chunk)
      if (pending.length > 0) {
        yield pending
        pending = []
      }
    }
    scanner.end()
  } catch (error) {
    if (error instanceof UsageError || error instanceof DataFileError || signal.aborted) throw error
    throw new DataFileError(`${path}: ${cliWording((error as Error).message)}`)
  } finally {
    file.destroy()
  }
  if (pending.length > 0) yield pending
}

/**
 * The size of a file in bytes, or a `UsageError` naming it when it cannot be read.
 *
 * @example
 * ```ts
 * await fileSize('people.csv') // 20480
 * ```
 */
export async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path)
    if (!info.isFile()) throw new UsageError(`${JSON.stringify(path)} is not a file`)
    return info.size
  } catch (error) {
    if (error instanceof UsageError) throw error
    throw new UsageError(`cannot read ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
  }
}

/**
 * The transfer scanners' words for the CLI: their messages name the service's request field (`fileId: `) and
 * count CSV records from the header; the CLI counts rows from the first data record, as every other message of
 * an import does (the line number stays alongside).
 */
function cliWording(message: string): string {
  return message.replace(/^fileId: /, '').replace(/CSV record (\d+) \(line (\d+)\)/, (_all, record: string, line: string) => `row ${Number(record) - 1} (line ${line})`)
}
