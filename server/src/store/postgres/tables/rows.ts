import type { Row } from 'botshelf/api'
import { tablesLimits } from 'botshelf/api'
import type { TablesStoreError } from '../../tables/errors.js'
import { queryRegexBudget } from '../../tables/regex-budget.js'
import { checkDeleteMode, checkRowBatch, keyConflict, missingRows, rowIdsExhausted, rowNotFound } from '../../tables/row-rules.js'
import { rowProblemsError, validatePatches, validateRows } from '../../tables/row-validation.js'
import type { RowsWriteResult, TableRecord } from '../../tables/types.js'
import { loadTable, lockTable, reserveIds } from './catalog.js'
import { castOf, encodeValue } from './columns.js'
import { atomically, query, quoteIdent, type PgTablesContext } from './context.js'
import { compileFilterSql, hasRegex } from './filter-sql.js'
import { SqlParams } from './params.js'
import { matchRegexValues } from './regex-matches.js'
import { insertRows, rowFromRaw, selectRows, storageProblems, userData } from './row-io.js'
import { applyRowWrites } from './row-writes.js'
import { columnSqlOf, parseTableFilter, runtimeOf, type PgTableRuntime } from './runtime.js'

/**
 * One row by id, or `ResourceNotFound`.
 *
 * @example
 * ```ts
 * const row = await getRow(context, 'bot_1', 'ordersTable', 1)
 * ```
 */
export async function getRow(context: PgTablesContext, botId: string, ref: string, id: number): Promise<Row> {
  const record = await loadTable(context, botId, ref)
  const rt = runtimeOf(record)
  const [raw] = await query(context, `SELECT * FROM ${quoteIdent(rt.physical)} WHERE id = $1::int`, [id])
  if (!raw) throw rowNotFound(id, record.name)
  return rowFromRaw(rt, raw)
}

/** Validates rows for insertion, throwing every problem (schema and storage) numbered from `firstRowIndex`. */
export function validateInsert(rt: PgTableRuntime, record: TableRecord, input: ReadonlyArray<Record<string, unknown>>, firstRowIndex: number) {
  const validated = validateRows(rt.columns, input, 'insert', record.factor)
  const problems = validated.problems.length > 0 ? validated.problems : storageProblems(rt, validated.rows)
  if (problems.length > 0) throw rowProblemsError(problems, firstRowIndex)
  return validated
}

/**
 * The error inserting these rows after each other would hit first, as SQLite would meet it row by row: a key
 * value already stored or given by an earlier row, or no row id left.
 */
async function firstInsertProblem(
  context: PgTablesContext,
  record: TableRecord,
  rt: PgTableRuntime,
  rows: ReadonlyArray<Map<string, unknown>>,
  lastRowId: number,
  firstRowIndex: number,
): Promise<TablesStoreError | undefined> {
  const key = record.keyColumn === null ? undefined : rt.byName.get(record.keyColumn)!
  let taken = new Set<unknown>()
  if (key) {
    const values = [...new Set(rows.map((values) => encodeValue(key.kind, values.get(key.name))).filter((v) => v !== null))]
    if (values.length > 0) {
      const column = quoteIdent(key.physical)
      const found = await query(context, `SELECT ${column} AS v FROM ${quoteIdent(rt.physical)} WHERE ${column} = ANY($1::${castOf(key.kind)}[])`, [values])
      taken = new Set(found.map((r) => r['v']))
    }
  }
  const seen = new Set<unknown>()
  for (const [index, values] of rows.entries()) {
    const encoded = key ? encodeValue(key.kind, values.get(key.name)) : null
    if (key && encoded !== null) {
      if (seen.has(encoded) || taken.has(encoded)) return keyConflict(key.name, firstRowIndex + index, values.get(key.name))
      seen.add(encoded)
    }
    if (lastRowId + index + 1 > tablesLimits.maxRowId) return rowIdsExhausted(firstRowIndex + index)
  }
  return undefined
}

async function insertAll(context: PgTablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>, firstRowIndex: number): Promise<RowsWriteResult> {
  return atomically(context, async (tx) => {
    // The catalog row is locked and the ids taken at once; a refusal below rolls both back.
    const { record, lastRowId } = await reserveIds(tx, botId, ref, input.length)
    const rt = runtimeOf(record)
    const validated = validateInsert(rt, record, input, firstRowIndex)
    const problem = await firstInsertProblem(tx, record, rt, validated.rows, lastRowId, firstRowIndex)
    if (problem) throw problem
    const rows = await insertRows(tx, rt, validated.rows, lastRowId + 1, tx.timestamp())
    return { rows, warnings: validated.warnings }
  })
}

/**
 * Inserts 1 to 1000 rows, all or nothing (docs/decisions/0403-all-or-nothing-writes.md).
 *
 * @example
 * ```ts
 * const { rows } = await createRows(context, 'bot_1', 'ordersTable', [{ total: 12 }, { total: 30 }])
 * ```
 */
export async function createRows(context: PgTablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): Promise<RowsWriteResult> {
  checkRowBatch(input.length)
  return insertAll(context, botId, ref, input, 0)
}

/**
 * Inserts any number of rows in one transaction, all or nothing; errors number rows from `firstRowIndex`.
 *
 * @example
 * ```ts
 * await importRows(context, 'bot_1', 'ordersTable', nextThousand, 1000)
 * ```
 */
export async function importRows(
  context: PgTablesContext,
  botId: string,
  ref: string,
  input: ReadonlyArray<Record<string, unknown>>,
  firstRowIndex = 0,
): Promise<{ inserted: number; ids: number[]; warnings: string[] }> {
  const { rows, warnings } = await insertAll(context, botId, ref, input, firstRowIndex)
  return { inserted: rows.length, ids: rows.map((row) => row.id), warnings }
}

/**
 * Changes the named columns of 1 to 1000 rows by id (`null` clears a column), all or nothing.
 *
 * @example
 * ```ts
 * await updateRows(context, 'bot_1', 'ordersTable', [{ id: 1, total: 13 }])
 * ```
 */
export async function updateRows(context: PgTablesContext, botId: string, ref: string, input: ReadonlyArray<Record<string, unknown> & { id: number }>): Promise<RowsWriteResult> {
  checkRowBatch(input.length)
  return atomically(context, async (tx) => {
    const { record } = await lockTable(tx, botId, ref)
    const rt = runtimeOf(record)
    const ids = input.map((r) => r.id)
    const current = await selectRows(tx, rt, [...new Set(ids)])
    const missing = ids.filter((id) => !current.has(id))
    if (missing.length > 0) throw missingRows('rows', missing, record.name)
    const before = new Map([...current].map(([id, raw]) => [id, userData(rt, raw)]))
    const validated = validatePatches(rt.columns, input, record.factor, before)
    const problems = validated.problems.length > 0 ? validated.problems : storageProblems(rt, validated.rows)
    if (problems.length > 0) throw rowProblemsError(problems)
    const now = tx.timestamp()
    const key = record.keyColumn
    const writes = validated.rows.map((values, index) => ({ type: 'patch' as const, id: input[index]!.id, values, index }))
    await applyRowWrites(tx, record, rt, writes, now, key === null || !validated.rows.some((values) => values.has(key)))
    const after = await selectRows(tx, rt, [...new Set(ids)])
    return { rows: ids.map((id) => rowFromRaw(rt, after.get(id)!)), warnings: validated.warnings }
  })
}

/**
 * Deletes rows by `ids`, by `filter` (its `$regex` matched under a query budget), or all of them.
 *
 * @example
 * ```ts
 * await deleteRows(context, 'bot_1', 'ordersTable', { filter: { total: { $lt: 1 } } }) // { deletedRows: 3 }
 * ```
 */
export async function deleteRows(
  context: PgTablesContext,
  botId: string,
  ref: string,
  input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean },
): Promise<{ deletedRows: number }> {
  checkDeleteMode(input)
  return atomically(context, async (tx) => {
    const { record } = await lockTable(tx, botId, ref)
    const rt = runtimeOf(record)
    const table = quoteIdent(rt.physical)
    const deleted = async (text: string, params: unknown[] = []) => (await query(tx, `WITH d AS (${text} RETURNING 1) SELECT count(*)::int AS n FROM d`, params))[0]!['n'] as number
    if (input.ids !== undefined) {
      const ids = input.ids.filter((id) => Number.isInteger(id) && id >= 1 && id <= tablesLimits.maxRowId)
      if (ids.length === 0) return { deletedRows: 0 }
      return { deletedRows: await deleted(`DELETE FROM ${table} WHERE id = ANY($1::int[])`, [ids]) }
    }
    if (input.filter !== undefined) {
      const filter = parseTableFilter(rt, input.filter)
      // The table's rows are locked for writes (the catalog row lock): the matched values stay those of the rows.
      const matches = hasRegex(filter) ? await matchRegexValues(tx, rt, filter, queryRegexBudget()) : undefined
      const params = new SqlParams()
      const where = compileFilterSql(filter, columnSqlOf(rt, 't'), params, matches)
      return { deletedRows: await deleted(`DELETE FROM ${table} t WHERE ${where}`, params.values) }
    }
    return { deletedRows: await deleted(`DELETE FROM ${table}`) }
  })
}
