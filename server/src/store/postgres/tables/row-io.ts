import type { Row } from 'botshelf/api'
import { keyConflict } from '../../tables/row-rules.js'
import type { RowProblem } from '../../tables/row-validation.js'
import type { TableRecord } from '../../tables/types.js'
import { query, quoteIdent, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { castOf, decodeValue, encodeValue, storedValue } from './columns.js'
import { SqlParams } from './params.js'
import type { PgTableRuntime } from './runtime.js'
import { storedRowReader, type RawRow } from '../../tables/stored-row.js'

export type { RawRow } from '../../tables/stored-row.js'

/** The wire row of a stored row, and its user values without empty columns, read with this engine's decoder. */
export const { rowFromRaw, userData } = storedRowReader(decodeValue)

/** Rows written per statement: one JSON parameter each, so any width of table fits. */
const INSERT_CHUNK = 1000

/**
 * The stored rows with these ids, by id (missing ids are absent).
 *
 * @example
 * ```ts
 * const current = await selectRows(tx, rt, [1, 2, 3])
 * ```
 */
export async function selectRows(context: PgTablesContext, rt: PgTableRuntime, ids: readonly number[]): Promise<Map<number, RawRow>> {
  const found = new Map<number, RawRow>()
  if (ids.length === 0) return found
  const rows = await query(context, `SELECT * FROM ${quoteIdent(rt.physical)} WHERE id = ANY($1::int[])`, [ids])
  for (const row of rows) found.set(row['id'] as number, row)
  return found
}

/** Whether a value holds U+0000 somewhere (as text, or escaped in JSON text). */
function holdsNul(value: string | number | boolean | null): boolean {
  return typeof value === 'string' && (value.includes('\u0000') || value.includes('\\u0000'))
}

/**
 * The values PostgreSQL cannot store: text holding U+0000 (text columns refuse it, and JSON holding it could
 * not be read by path). Checked with the other row problems, so nothing is written.
 *
 * @example
 * ```ts
 * const problems = storageProblems(rt, validated.rows) // [{ row: 0, column: 'name', message: '…U+0000…' }]
 * ```
 */
export function storageProblems(rt: PgTableRuntime, rows: ReadonlyArray<Map<string, unknown>>): RowProblem[] {
  const problems: RowProblem[] = []
  rows.forEach((values, row) => {
    for (const [name, value] of values) {
      const column = rt.byName.get(name)
      if (column && holdsNul(encodeValue(column.kind, value))) {
        problems.push({ row, column: name, message: 'text with the character U+0000 cannot be stored (PostgreSQL text never holds it)' })
      }
    }
  })
  return problems
}

/**
 * Inserts validated rows (values of every column) with the ids `firstId`, `firstId + 1`, … (or `ids`, one per
 * row) and the time `now` (or `times`, one per row: a restore), and returns them as read back. The caller checked
 * key values beforehand.
 *
 * @example
 * ```ts
 * const rows = await insertRows(tx, rt, validated.rows, lastRowId + 1, tx.timestamp())
 * ```
 */
export async function insertRows(
  context: PgTablesContext,
  rt: PgTableRuntime,
  rows: ReadonlyArray<Map<string, unknown>>,
  firstId: number,
  now: string,
  ids?: readonly number[],
  times?: ReadonlyArray<{ createdAt: string; updatedAt: string }>,
): Promise<Row[]> {
  const table = quoteIdent(rt.physical)
  const columns = ['id', 'created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))].join(', ')
  const record = ['id integer', 'created_at text', 'updated_at text', ...rt.columns.map((c) => `${quoteIdent(c.physical)} ${castOf(c.kind) === 'text::json' ? 'json' : castOf(c.kind)}`)].join(', ')
  const out: Row[] = []
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK)
    const records = chunk.map((values, i) => {
      const time = times?.[start + i]
      const entry: Record<string, unknown> = { id: ids?.[start + i] ?? firstId + start + i, created_at: time?.createdAt ?? now, updated_at: time?.updatedAt ?? now }
      for (const c of rt.columns) {
        const value = values.get(c.name)
        // Objects and arrays go in as JSON values, so the json column keeps exactly JSON.stringify's text.
        entry[c.physical] = c.kind === 'object' || c.kind === 'array' ? (value ?? null) : encodeValue(c.kind, value)
      }
      return entry
    })
    await query(context, `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_to_recordset($1::text::json) AS x(${record})`, [JSON.stringify(records)])
    chunk.forEach((values, i) => {
      const time = times?.[start + i]
      const row: Row = { id: ids?.[start + i] ?? firstId + start + i, createdAt: time?.createdAt ?? now, updatedAt: time?.updatedAt ?? now, computed: {} }
      for (const c of rt.columns) row[c.name] = storedValue(c.kind, values.get(c.name))
      out.push(row)
    })
  }
  return out
}

/**
 * Writes the validated values a patch sets (others stay) and bumps `updated_at`. A duplicate key column value is
 * `KEY_CONFLICT` naming `rows.<index>`.
 *
 * @example
 * ```ts
 * await patchRow(tx, record, rt, 7, new Map([['total', 13]]), 0, tx.timestamp())
 * ```
 */
export async function patchRow(context: PgTablesContext, record: TableRecord, rt: PgTableRuntime, id: number, values: Map<string, unknown>, index: number, now: string): Promise<void> {
  await patchRows(context, record, rt, [{ id, values, index }], now)
}

/**
 * Applies patches in order, as one statement each, sent together (pipelined on the transaction's connection)
 * rather than one round trip after the other. The first failure is the one reported: a duplicate key column
 * value is `KEY_CONFLICT` naming `rows.<index>` of its patch (the statements after it fail as the transaction
 * is aborted, and are ignored).
 *
 * @example
 * ```ts
 * await patchRows(tx, record, rt, [{ id: 7, values: new Map([['total', 13]]), index: 0 }], tx.timestamp())
 * ```
 */
export async function patchRows(
  context: PgTablesContext,
  record: TableRecord,
  rt: PgTableRuntime,
  patches: ReadonlyArray<{ id: number; values: Map<string, unknown>; index: number }>,
  now: string,
): Promise<void> {
  const statements = patches.map(({ id, values }) => {
    const params = new SqlParams()
    const sets = [...values.keys()].map((name) => {
      const column = rt.byName.get(name)!
      return `${quoteIdent(column.physical)} = ${params.add(encodeValue(column.kind, values.get(name)), castOf(column.kind))}`
    })
    sets.push(`updated_at = ${params.add(now, 'text')}`)
    return query(context, `UPDATE ${quoteIdent(rt.physical)} SET ${sets.join(', ')} WHERE id = ${params.add(id, 'int')}`, params.values)
  })
  const settled = await Promise.allSettled(statements)
  const failed = settled.findIndex((s) => s.status === 'rejected')
  if (failed < 0) return
  const error = (settled[failed] as PromiseRejectedResult).reason as unknown
  const { values, index } = patches[failed]!
  if (sqlState(error) === UNIQUE_VIOLATION && record.keyColumn) throw keyConflict(record.keyColumn, index, values.get(record.keyColumn) ?? null)
  throw error
}
