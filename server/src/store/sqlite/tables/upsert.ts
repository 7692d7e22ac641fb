import type { Row } from 'botshelf/api'
import { writeRegexBudget, type RegexBudget } from '../../tables/regex-budget.js'
import { checkRowBatch, missingRows, upsertKey } from '../../tables/row-rules.js'
import { rowProblemsError, validateRows, type RowProblem } from '../../tables/row-validation.js'
import type { TableColumn } from '../../tables/table-columns.js'
import type { TableRecord } from '../../tables/types.js'
import { loadTable } from './catalog.js'
import { runtimeOf } from './catalog-records.js'
import { encodeValue, quoteIdent } from './columns.js'
import type { TablesContext } from './context.js'
import { insertRow, patchRow, rowFromRaw, selectRows, userData } from './row-io.js'
import type { TableRuntime } from './runtime.js'

/** The existing row a row to upsert matches, `undefined` for a new one, or the problem that stops it. */
type Match = { id: number | undefined } | { problem: RowProblem }

function matchByKey(
  context: TablesContext,
  record: TableRecord,
  rt: TableRuntime,
  key: TableColumn,
  row: Record<string, unknown>,
  index: number,
  budget: RegexBudget,
): Match {
  // An own key only: a key column named `toString` must not find the prototype's method on a row without it.
  const value = Object.hasOwn(row, key.name) ? row[key.name] : undefined
  if (value === undefined || value === null) {
    return { problem: { row: index, column: key.name, message: 'the key column needs a value, received ' + (value === null ? 'null' : 'missing') } }
  }
  const problem = validateRows([key], [{ [key.name]: value }], 'patch', record.factor, undefined, budget).problems[0]
  if (problem) return { problem: { ...problem, row: index } }
  const matches = context
    .prepare(`SELECT id FROM ${quoteIdent(rt.physical)} WHERE ${quoteIdent(key.physical)} = ? LIMIT 2`)
    .pluck()
    .all(encodeValue(key.kind, value)) as number[]
  if (matches.length > 1) {
    return { problem: { row: index, column: key.name, message: `more than one existing row has ${JSON.stringify(value)}; upsert needs a unique match` } }
  }
  return { id: matches[0] }
}

function matchById(context: TablesContext, record: TableRecord, rt: TableRuntime, row: Record<string, unknown>, index: number): Match {
  const id = row['id']
  if (id === undefined) return { id: undefined }
  if (!context.prepare(`SELECT 1 FROM ${quoteIdent(rt.physical)} WHERE id = ?`).get(id)) throw missingRows(`rows.${index}.id`, [id], record.name)
  return { id: id as number }
}

/**
 * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`), in request order, all or
 * nothing. With `id`, a row without `id` is inserted and a row whose `id` does not exist is refused.
 * With another column, each row needs a value there; more than one existing match is refused.
 *
 * @example
 * ```ts
 * const { inserted, updated } = upsertRows(context, 'bot_1', 'usersTable', [{ email: 'a@b.c', name: 'Ada' }], 'email')
 * ```
 */
export function upsertRows(
  context: TablesContext,
  botId: string,
  ref: string,
  input: ReadonlyArray<Record<string, unknown>>,
  keyColumn = 'id',
): { inserted: Row[]; updated: Row[]; warnings: string[] } {
  checkRowBatch(input.length)
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    const key = upsertKey(rt, keyColumn, record.name)
    const problems: RowProblem[] = []
    const warnings = new Set<string>()
    const now = context.timestamp()
    const insertedIds: number[] = []
    const updatedIds: number[] = []
    // One budget for the pattern checks of the whole call, as for the other writes.
    const budget = writeRegexBudget()
    input.forEach((row, index) => {
      const match = key ? matchByKey(context, record, rt, key, row, index, budget) : matchById(context, record, rt, row, index)
      if ('problem' in match) {
        problems.push(match.problem)
        return
      }
      const existingId = match.id
      const raw = existingId === undefined ? undefined : selectRows(context, rt, [existingId]).get(existingId)!
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
      if (validated.problems.length > 0) problems.push(...validated.problems.map((p) => ({ ...p, row: index })))
      // After a problem nothing more is written; the rows are still checked so every problem is reported.
      else if (problems.length === 0) {
        if (existingId === undefined) insertedIds.push(insertRow(context, record, rt, validated.rows[0]!, index, now).id)
        else {
          patchRow(context, record, rt, existingId, validated.rows[0]!, index, now)
          updatedIds.push(existingId)
        }
      }
    })
    if (problems.length > 0) throw rowProblemsError(problems)
    const all = selectRows(context, rt, [...new Set([...insertedIds, ...updatedIds])])
    const insertedSet = new Set(insertedIds)
    return {
      inserted: [...insertedSet].map((id) => rowFromRaw(rt, all.get(id)!)),
      updated: [...new Set(updatedIds)].filter((id) => !insertedSet.has(id)).map((id) => rowFromRaw(rt, all.get(id)!)),
      warnings: [...warnings],
    }
  })()
}
