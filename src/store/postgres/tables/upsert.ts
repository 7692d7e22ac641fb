import type { Row } from '../../../api/tables/index.js'
import { tablesLimits } from '../../../api/tables/index.js'
import { writeRegexBudget, type RegexBudget } from '../../tables/regex-budget.js'
import { checkRowBatch, keyConflict, missingRows, rowIdsExhausted, upsertKey } from '../../tables/row-rules.js'
import { rowProblemsError, validateRows, type RowProblem } from '../../tables/row-validation.js'
import type { TableColumn } from '../../tables/table-columns.js'
import type { TableRecord } from '../../tables/types.js'
import { lockTable } from './catalog.js'
import { castOf, encodeValue } from './columns.js'
import { atomically, query, quoteIdent, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { insertRows, patchRow, rowFromRaw, selectRows, storageProblems, userData } from './row-io.js'
import { runtimeOf, type PgTableRuntime } from './runtime.js'

/** The existing row a row to upsert matches, `undefined` for a new one, or the problem that stops it. */
type Match = { id: number | undefined } | { problem: RowProblem }

async function matchByKey(
  context: PgTablesContext,
  record: TableRecord,
  rt: PgTableRuntime,
  key: TableColumn,
  row: Record<string, unknown>,
  index: number,
  budget: RegexBudget,
): Promise<Match> {
  // An own key only: a key column named `toString` must not find the prototype's method on a row without it.
  const value = Object.hasOwn(row, key.name) ? row[key.name] : undefined
  if (value === undefined || value === null) {
    return { problem: { row: index, column: key.name, message: 'the key column needs a value, received ' + (value === null ? 'null' : 'missing') } }
  }
  const problem = validateRows([key], [{ [key.name]: value }], 'patch', record.factor, undefined, budget).problems[0] ?? storageProblems(rt, [new Map([[key.name, value]])])[0]
  if (problem) return { problem: { ...problem, row: index } }
  const matches = await query(context, `SELECT id FROM ${quoteIdent(rt.physical)} WHERE ${quoteIdent(key.physical)} = $1::${castOf(key.kind)} LIMIT 2`, [encodeValue(key.kind, value)])
  if (matches.length > 1) {
    return { problem: { row: index, column: key.name, message: `more than one existing row has ${JSON.stringify(value)}; upsert needs a unique match` } }
  }
  return { id: matches[0]?.['id'] as number | undefined }
}

async function matchById(context: PgTablesContext, record: TableRecord, rt: PgTableRuntime, row: Record<string, unknown>, index: number): Promise<Match> {
  const id = row['id']
  if (id === undefined) return { id: undefined }
  const valid = typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= tablesLimits.maxRowId
  if (!valid || (await query(context, `SELECT 1 FROM ${quoteIdent(rt.physical)} WHERE id = $1::int`, [id])).length === 0) throw missingRows(`rows.${index}.id`, [id], record.name)
  return { id }
}

/**
 * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`), in request order, all or nothing,
 * as on SQLite: with `id`, a row without `id` is inserted and a row whose `id` does not exist is refused; with
 * another column, each row needs a value there and more than one existing match is refused.
 *
 * @example
 * ```ts
 * const { inserted, updated } = await upsertRows(context, 'bot_1', 'usersTable', [{ email: 'a@b.c', name: 'Ada' }], 'email')
 * ```
 */
export async function upsertRows(
  context: PgTablesContext,
  botId: string,
  ref: string,
  input: ReadonlyArray<Record<string, unknown>>,
  keyColumn = 'id',
): Promise<{ inserted: Row[]; updated: Row[]; warnings: string[] }> {
  checkRowBatch(input.length)
  return atomically(context, async (tx) => {
    const { record, lastRowId } = await lockTable(tx, botId, ref)
    const rt = runtimeOf(record)
    const key = upsertKey(rt, keyColumn, record.name)
    const problems: RowProblem[] = []
    const warnings = new Set<string>()
    const now = tx.timestamp()
    const insertedIds: number[] = []
    const updatedIds: number[] = []
    let nextId = lastRowId + 1
    const budget = writeRegexBudget()
    for (const [index, row] of input.entries()) {
      const match = key ? await matchByKey(tx, record, rt, key, row, index, budget) : await matchById(tx, record, rt, row, index)
      if ('problem' in match) {
        problems.push(match.problem)
        continue
      }
      const existingId = match.id
      const raw = existingId === undefined ? undefined : (await selectRows(tx, rt, [existingId])).get(existingId)!
      const validated = raw
        ? validateRows(
            rt.columns,
            [row],
            'patch',
            record.factor,
            (_i, changes) => {
              const merged = { ...userData(rt, raw), ...changes }
              for (const [k, v] of Object.entries(row)) if (v === null) delete merged[k]
              return merged
            },
            budget,
          )
        : validateRows(rt.columns, [row], 'insert', record.factor, undefined, budget)
      validated.warnings.forEach((w) => warnings.add(w))
      const found = validated.problems.length > 0 ? validated.problems : storageProblems(rt, validated.rows)
      if (found.length > 0) problems.push(...found.map((p) => ({ ...p, row: index })))
      // After a problem nothing more is written; the rows are still checked so every problem is reported.
      else if (problems.length === 0) {
        if (existingId === undefined) {
          if (nextId > tablesLimits.maxRowId) throw rowIdsExhausted(index)
          try {
            await insertRows(tx, rt, validated.rows, nextId, now)
          } catch (error) {
            if (sqlState(error) === UNIQUE_VIOLATION && record.keyColumn) throw keyConflict(record.keyColumn, index, validated.rows[0]!.get(record.keyColumn))
            throw error
          }
          insertedIds.push(nextId++)
        } else {
          await patchRow(tx, record, rt, existingId, validated.rows[0]!, index, now)
          updatedIds.push(existingId)
        }
      }
    }
    if (problems.length > 0) throw rowProblemsError(problems)
    if (nextId - 1 > lastRowId) await query(tx, 'UPDATE tables_catalog SET last_row_id = $2::int WHERE id = $1::text', [record.id, nextId - 1])
    const all = await selectRows(tx, rt, [...new Set([...insertedIds, ...updatedIds])])
    const insertedSet = new Set(insertedIds)
    return {
      inserted: [...insertedSet].map((id) => rowFromRaw(rt, all.get(id)!)),
      updated: [...new Set(updatedIds)].filter((id) => !insertedSet.has(id)).map((id) => rowFromRaw(rt, all.get(id)!)),
      warnings: [...warnings],
    }
  })
}
