import { gunzipSync, gzipSync } from 'node:zlib'
import type { TableJob } from '../../api/tables/index.js'
import type * as ops from '../../api/tables/operations.js'
import { tablesLimits } from '../../api/tables/index.js'
import { columnKind } from '../../store/sqlite/tables-columns.js'
import { TablesStoreError } from '../../store/sqlite/tables-error.js'
import type { SqliteTablesStore, TableRecord } from '../../store/sqlite/tables-store.js'
import { resolveFile } from '../files/file-resolver.js'
import { ownerFor } from '../files/permissions.js'
import { filesStateOf } from '../files/state.js'
import type { OperationContext } from '../http/register-operation.js'
import { ServiceError } from '../service-error.js'
import { csvRecord, parseCsv, type CsvField } from './csv.js'

/** Largest import file, compressed or not, and largest decompressed content: 100 MB. */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024

const PAGE = 1000
const SYSTEM_HEADERS = ['id', 'createdAt', 'updatedAt']

function columnsOf(record: TableRecord): Array<{ name: string; kind: ReturnType<typeof columnKind> }> {
  return Object.entries(record.schema.properties)
    .sort((a, b) => a[1]['x-zui'].index - b[1]['x-zui'].index)
    .map(([name, column]) => ({ name, kind: columnKind(column) }))
}

/** Every row of a table in id order, read page by page (the connection is never held across an await). */
function* allRows(store: SqliteTablesStore, botId: string, tableId: string): Generator<Record<string, unknown>> {
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
export function renderExport(store: SqliteTablesStore, botId: string, record: TableRecord, format: 'csv' | 'json'): string {
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

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    if (size > IMPORT_MAX_BYTES) throw new ServiceError('LimitExceeded', `fileId: import files are limited to ${IMPORT_MAX_BYTES} bytes`)
    chunks.push(Buffer.from(chunk))
  }
  return Buffer.concat(chunks)
}

function failJob(store: SqliteTablesStore, job: TableJob, error: unknown): never {
  try {
    store.updateJob(job.id, { status: 'failed', error: error instanceof Error ? error.message : String(error) })
  } catch {
    // The table (and its jobs) went away meanwhile: the original error is the one to answer.
  }
  throw error
}

/**
 * `importTable`: reads a Files API file the caller may read (CSV or JSON, gzipped or not) and inserts its
 * rows into the table, all or nothing, in the request. The job is recorded `completed`, or `failed` while the
 * request answers the error (decision 0408).
 *
 * @example
 * ```ts
 * register(ops.importTable, importTableHandler)
 * ```
 */
export async function importTableHandler(context: OperationContext<typeof ops.importTable>, store: SqliteTablesStore) {
  const { principal, services, input } = context
  const record = store.loadTable(principal.botId, input.params.table)
  const { files, blobs } = filesStateOf(services)
  const file = resolveFile(files, principal, input.body.fileId, 'read', services.now())
  if (!file.blobId) throw new ServiceError('InvalidPayload', `fileId: file ${JSON.stringify(file.key)} has no uploaded content yet`)
  const job = store.createJob(principal.botId, record.id, 'import', { inputFileId: file.id })
  try {
    store.updateJob(job.id, { status: 'in_progress' })
    const { stream } = await blobs.read(file.blobId)
    const rows = parseImport(await readAll(stream), record)
    if (rows.length === 0) throw new ServiceError('InvalidPayload', `fileId: file ${JSON.stringify(file.key)} holds no rows`)
    store.importRows(principal.botId, record.id, rows)
    return { job: store.updateJob(job.id, { status: 'completed', progress: 1 }) }
  } catch (error) {
    if (error instanceof TablesStoreError && error.type === 'InvalidDataFormat') {
      failJob(store, job, new TablesStoreError(error.type, error.code, error.message.replace('no row was written', 'no row was imported'), error.metadata))
    }
    failJob(store, job, error)
  }
}

/**
 * `exportTable`: writes every row to a new Files API file owned by the caller (`tables/<name>/<jobId>.csv`,
 * `.json`, `+ .gz` when `compress`, the default), in the request; the job comes back `completed` with its
 * `outputFileId` (decision 0408).
 *
 * @example
 * ```ts
 * register(ops.exportTable, exportTableHandler)
 * ```
 */
export async function exportTableHandler(context: OperationContext<typeof ops.exportTable>, store: SqliteTablesStore) {
  const { principal, services, input } = context
  const record = store.loadTable(principal.botId, input.params.table)
  const format = input.query.format ?? 'json'
  const compress = input.query.compress ?? true
  const job = store.createJob(principal.botId, record.id, 'export')
  const { files, blobs } = filesStateOf(services)
  try {
    store.updateJob(job.id, { status: 'in_progress' })
    const text = renderExport(store, principal.botId, record, format)
    const content = compress ? gzipSync(Buffer.from(text, 'utf8')) : Buffer.from(text, 'utf8')
    const written = await blobs.write(
      (async function* () {
        yield new Uint8Array(content.buffer, content.byteOffset, content.byteLength)
      })(),
      { expectedBytes: content.byteLength },
    )
    const { owner, scope } = ownerFor(principal)
    const now = services.now()
    const key = `tables/${record.name}/${job.id}.${format}${compress ? '.gz' : ''}`
    const contentType = compress ? 'application/gzip' : format === 'csv' ? 'text/csv' : 'application/json'
    const { file, unreferencedBlobIds } = files.upsert({
      botId: principal.botId,
      key,
      ownerScope: scope,
      owner,
      size: written.size,
      contentType,
      tags: { source: 'table-export', table: record.name.slice(0, tablesLimits.tagValueMax) },
      metadata: { tableId: record.id, jobId: job.id, format, compressed: compress },
      accessPolicies: [],
      index: false,
      expiresAt: null,
      now,
    })
    const committed = files.completeUpload(file.id, file.version, written, now)
    for (const blobId of unreferencedBlobIds) await blobs.delete(blobId)
    if (!committed.ok) throw new Error(`export file ${file.id} could not be committed (${committed.reason})`)
    return { job: store.updateJob(job.id, { status: 'completed', progress: 1, outputFileId: file.id }) }
  } catch (error) {
    failJob(store, job, error)
  }
}
