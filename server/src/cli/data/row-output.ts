import { csvRecord } from '../../transfer/index.js'
import type { CliStream } from '../io.js'
import { UsageError } from '../io.js'
import { renderTable } from '../output/index.js'

/** How rows are printed: a table for people, JSON or CSV for programs. */
export type RowFormat = 'table' | 'json' | 'csv'

/**
 * The output format from `--format`, `--json` and `--csv` (default a table); contradicting ones are a `UsageError`.
 *
 * @example
 * ```ts
 * rowFormatOf({ json: true }) // 'json'
 * ```
 */
export function rowFormatOf(values: { format?: string; json?: boolean; csv?: boolean }): RowFormat {
  const chosen = [values.format, values.json ? 'json' : undefined, values.csv ? 'csv' : undefined].filter((v): v is string => v !== undefined)
  const distinct = [...new Set(chosen)]
  if (distinct.length > 1) throw new UsageError(`choose one output format; received ${distinct.join(' and ')}`)
  const format = distinct[0] ?? 'table'
  if (format !== 'table' && format !== 'json' && format !== 'csv') throw new UsageError(`--format must be table, json or csv, received ${JSON.stringify(format)}`)
  return format
}

/**
 * The column names of rows in a stable order: `id` first, then `preferred` (the table's columns in order),
 * then any other key in order of appearance, `createdAt` and `updatedAt` last.
 *
 * @example
 * ```ts
 * rowColumns([{ id: 1, name: 'Ada', createdAt: 't' }], ['name']) // ['id', 'name', 'createdAt']
 * ```
 */
export function rowColumns(rows: ReadonlyArray<Record<string, unknown>>, preferred: readonly string[] = []): string[] {
  const present = new Set<string>()
  for (const row of rows) for (const key of Object.keys(row)) present.add(key)
  // Service bookkeeping that says nothing in a table (computed columns are not run yet: always {}).
  for (const hidden of ['computed', 'stale']) if (rows.every((row) => isEmptyValue(row[hidden]))) present.delete(hidden)
  const last = ['createdAt', 'updatedAt']
  const ordered = ['id', ...preferred, ...present].filter((c, i, all) => present.has(c) && all.indexOf(c) === i && !last.includes(c))
  return [...ordered, ...last.filter((c) => present.has(c))]
}

/**
 * Prints rows in a format: a table (boxed on a terminal), a JSON array, or CSV with a header record.
 *
 * @example
 * ```ts
 * io.stdout.write(formatRows(io.stdout, rows, ['name', 'age'], 'csv'))
 * ```
 */
export function formatRows(stream: CliStream, rows: ReadonlyArray<Record<string, unknown>>, preferred: readonly string[], format: RowFormat): string {
  if (format === 'json') return `${JSON.stringify(rows, null, 2)}\n`
  const columns = rowColumns(rows, preferred)
  if (format === 'csv') return [csvRecord(columns), ...rows.map((row) => csvRecord(columns.map((c) => row[c])))].map((line) => `${line}\r\n`).join('')
  return renderTable(stream, columns, rows.map((row) => columns.map((c) => row[c])))
}

function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0)
}
