/**
 * The whole-file import parser and export renderer that ran inside the request before imports and exports became
 * streaming background jobs. Kept as the oracle of the streaming codecs' tests (same rows in, same bytes out),
 * never imported by the service, and left out of the build.
 */
import { gunzipSync } from 'node:zlib'
import type { FindQuery, FindResult, TableRecord } from '../store/index.js'
import { columnKind } from '../store/tables/index.js'
import { ServiceError } from '../http/service-error.js'
import { csvRecord, parseCsv, type CsvField } from './csv.js'

/** Largest import file, compressed or not, and largest decompressed content: 100 MB. */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024

/** What the renderer reads rows from: the synchronous SQLite tables store in the tests. */
interface RowsSource {
  findRows(botId: string, ref: string, query: FindQuery): FindResult
}

const PAGE = 1000
const SYSTEM_HEADERS = ['id', 'createdAt', 'updatedAt']

function columnsOf(record: TableRecord): Array<{ name: string; kind: ReturnType<typeof columnKind> }> {
  return Object.entries(record.schema.properties)
    .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
    .map(([name, column]) => ({ name, kind: columnKind(column) }))
}

/** Every row of a table in id order, read page by page (the connection is never held across an await). */
function* allRows(store: RowsSource, botId: string, tableId: string): Generator<Record<string, unknown>> {
  let after = 0
  for (;;) {
    const { rows, hasMore } = store.findRows(botId, tableId, { filter: { id: { $gt: after } }, orderBy: 'id', limit: PAGE })
    for (const row of rows) yield row
    if (!hasMore || rows.length === 0) return
    after = rows[rows.length - 1]!.id as number
  }
}

/**
 * Renders a table as CSV (header `id,createdAt,updatedAt,<columns>`) or JSON (`{ table, schema, rows }`).
 *
 * @example
 * ```ts
 * const text = renderExport(store, botId, record, 'csv')
 * ```
 */
export function renderExport(store: RowsSource, botId: string, record: TableRecord, format: 'csv' | 'json'): string {
  const columns = columnsOf(record).map((c) => c.name)
  if (format === 'csv') {
    const lines = [csvRecord([...SYSTEM_HEADERS, ...columns])]
    for (const row of allRows(store, botId, record.id)) lines.push(csvRecord([...SYSTEM_HEADERS, ...columns].map((name) => row[name])))
    return `${lines.join('\r\n')}\r\n`
  }
  const rows: unknown[] = []
  for (const row of allRows(store, botId, record.id)) {
    const out: Record<string, unknown> = { id: row['id'], createdAt: row['createdAt'], updatedAt: row['updatedAt'] }
    for (const name of columns) out[name] = row[name]
    rows.push(out)
  }
  return JSON.stringify({ table: record.name, schema: record.schema, rows })
}

function cellValue(kind: ReturnType<typeof columnKind>, field: CsvField): unknown {
  if (field.text === '' && !field.quoted) return undefined
  const text = field.text
  switch (kind) {
    case 'number': {
      const n = Number(text)
      return text.trim() !== '' && Number.isFinite(n) ? n : text
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text
    case 'object':
    case 'array':
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    default:
      return text
  }
}

/**
 * Reads the rows of an import file: gzip detected by its magic bytes, JSON when the text starts with `{`
 * (`{ rows: [...] }`, as exported) or `[` (an array of rows), CSV otherwise (a header row naming columns;
 * `id`, `createdAt`, `updatedAt` and unknown columns are ignored; cells are typed by their column).
 *
 * @example
 * ```ts
 * const rows = parseImport(bytes, record)
 * ```
 */
export function parseImport(bytes: Buffer, record: TableRecord): Array<Record<string, unknown>> {
  let content = bytes
  if (content[0] === 0x1f && content[1] === 0x8b) {
    try {
      content = gunzipSync(content, { maxOutputLength: IMPORT_MAX_BYTES })
    } catch (error) {
      throw new ServiceError('InvalidPayload', `fileId: the file looks gzipped but does not decompress (${(error as Error).message})`)
    }
  }
  const text = content.toString('utf8').replace(/^\uFEFF/, '')
  const start = text.trimStart()[0]
  if (start === '{' || start === '[') {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (error) {
      throw new ServiceError('InvalidPayload', `fileId: the file is not valid JSON (${(error as Error).message})`)
    }
    const rows = Array.isArray(parsed) ? parsed : (parsed as { rows?: unknown }).rows
    if (!Array.isArray(rows) || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
      throw new ServiceError('InvalidPayload', 'fileId: a JSON import is an array of row objects or { "rows": [...] }')
    }
    return rows as Array<Record<string, unknown>>
  }
  let records: CsvField[][]
  try {
    records = parseCsv(text)
  } catch (error) {
    throw new ServiceError('InvalidPayload', `fileId: ${(error as Error).message}`)
  }
  const [header, ...body] = records
  if (!header) return []
  const kinds = new Map(columnsOf(record).map((c) => [c.name, c.kind]))
  return body
    .filter((fields) => !(fields.length === 1 && fields[0]!.text === '' && !fields[0]!.quoted))
    .map((fields) => {
      const row: Record<string, unknown> = {}
      header.forEach((name, i) => {
        const field = fields[i]
        if (!field || SYSTEM_HEADERS.includes(name.text)) return
        const kind = kinds.get(name.text)
        const value = kind ? cellValue(kind, field) : field.text
        if (value !== undefined) row[name.text] = value
      })
      return row
    })
}

