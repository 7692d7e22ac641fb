import type { Row } from 'botshelf/api'
import { tablesLimits } from 'botshelf/api'
import type { TablesStoreError } from '../../tables/errors.js'
import { writeRegexBudget } from '../../tables/regex-budget.js'
import { checkRowBatch, missingRows, rowIdsExhausted, upsertKey } from '../../tables/row-rules.js'
import { rowProblemsError, validateRows, type RowProblem } from '../../tables/row-validation.js'
import type { TableColumn } from '../../tables/table-columns.js'
import { lockTable } from './catalog.js'
import { castOf, encodeValue, storedValue } from './columns.js'
import { atomically, query, quoteIdent, type PgTablesContext } from './context.js'
import { rowFromRaw, selectRows, storageProblems, userData } from './row-io.js'
import { applyRowWrites, type RowWrite } from './row-writes.js'
import { runtimeOf, type PgTableRuntime } from './runtime.js'

/** An own property only: a key column named `toString` must not find the prototype's method on a row without it. */
const own = (row: Record<string, unknown>, name: string): unknown => (Object.hasOwn(row, name) ? row[name] : undefined)

/** The ids of stored rows holding each of these key values, in id order. */
async function idsByKey(context: PgTablesContext, rt: PgTableRuntime, key: TableColumn, values: readonly unknown[]): Promise<Map<unknown, number[]>> {
  const found = new Map<unknown, number[]>()
  if (values.length === 0) return found
  const column = quoteIdent(key.physical)
  const rows = await query(context, `SELECT id, ${column} AS v FROM ${quoteIdent(rt.physical)} WHERE ${column} = ANY($1::${castOf(key.kind)}[]) ORDER BY id`, [values])
  for (const row of rows) found.set(row['v'], [...(found.get(row['v']) ?? []), row['id'] as number])
  return found
}

/** The user values of a row as stored: what later rows of the same call see when they patch it again. */
function storedData(rt: PgTableRuntime, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const c of rt.columns) if (data[c.name] !== undefined && data[c.name] !== null) out[c.name] = storedValue(c.kind, data[c.name])
  return out
}

/**
 * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`), in request order, all or nothing,
 * with the outcome SQLite has running them one by one: with `id`, a row without `id` is inserted and a row whose
 * `id` does not exist is refused; with another column, each row needs a value there and more than one existing
 * match is refused. The stored rows the call matches are read at once and the call is played in order against
 * them (a key inserted by an earlier row is matched by a later one), then written in as few statements as the
 * outcome allows (`applyRowWrites`).
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
    const budget = writeRegexBudget()
    const problems: RowProblem[] = []
    const warnings = new Set<string>()
    const writes: RowWrite[] = []
    // The first error SQLite would throw on the spot (an unknown id, no id left), after the writes before it.
    let stop: TablesStoreError | undefined

    // Key values checked once (a value the key column refuses is that row's problem), then looked up at once.
    const keyProblems = new Map<number, RowProblem>()
    const keyValues = new Map<number, unknown>()
    if (key) {
      input.forEach((row, index) => {
        const value = own(row, key.name)
        if (value === undefined || value === null) {
          keyProblems.set(index, { row: index, column: key.name, message: 'the key column needs a value, received ' + (value === null ? 'null' : 'missing') })
          return
        }
        const problem = validateRows([key], [{ [key.name]: value }], 'patch', record.factor, undefined, budget).problems[0] ?? storageProblems(rt, [new Map([[key.name, value]])])[0]
        if (problem) keyProblems.set(index, { ...problem, row: index })
        else keyValues.set(index, encodeValue(key.kind, value))
      })
    }
    const byKey = key ? await idsByKey(tx, rt, key, [...new Set(keyValues.values())]) : new Map<unknown, number[]>()
    const requestedIds = key ? [] : input.map((row) => row['id']).filter((id): id is number => typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= tablesLimits.maxRowId)
    const stored = await selectRows(tx, rt, [...new Set([...[...byKey.values()].flat(), ...requestedIds])])
    const state = new Map([...stored].map(([id, raw]) => [id, userData(rt, raw)]))
    let nextId = lastRowId + 1

    for (const [index, row] of input.entries()) {
      let existingId: number | undefined
      if (key) {
        const problem = keyProblems.get(index)
        if (problem) {
          problems.push(problem)
          continue
        }
        const ids = byKey.get(keyValues.get(index)) ?? []
        if (ids.length > 1) {
          problems.push({ row: index, column: key.name, message: `more than one existing row has ${JSON.stringify(own(row, key.name))}; upsert needs a unique match` })
          continue
        }
        existingId = ids[0]
      } else if (row['id'] !== undefined) {
        if (!state.has(row['id'] as number)) {
          stop = missingRows(`rows.${index}.id`, [row['id']], record.name)
          break
        }
        existingId = row['id'] as number
      }
      const current = existingId === undefined ? undefined : state.get(existingId)!
      let merged: Record<string, unknown> | undefined
      const validated = current
        ? validateRows(
            rt.columns,
            [row],
            'patch',
            record.factor,
            (_i, changes) => {
              merged = { ...current, ...changes }
              for (const [k, v] of Object.entries(row)) if (v === null) delete merged[k]
              return merged
            },
            budget,
          )
        : validateRows(rt.columns, [row], 'insert', record.factor, undefined, budget)
      validated.warnings.forEach((w) => warnings.add(w))
      const found = validated.problems.length > 0 ? validated.problems : storageProblems(rt, validated.rows)
      if (found.length > 0) {
        problems.push(...found.map((p) => ({ ...p, row: index })))
        continue
      }
      // After a problem nothing more is written; the rows are still checked so every problem is reported.
      if (problems.length > 0) continue
      const values = validated.rows[0]!
      if (existingId === undefined) {
        if (nextId > tablesLimits.maxRowId) {
          stop = rowIdsExhausted(index)
          break
        }
        const id = nextId++
        writes.push({ type: 'insert', id, values, index })
        state.set(id, storedData(rt, Object.fromEntries(values)))
        if (key) byKey.set(keyValues.get(index), [id])
      } else {
        writes.push({ type: 'patch', id: existingId, values, index })
        state.set(existingId, storedData(rt, merged ?? { ...current, ...Object.fromEntries(values) }))
      }
    }

    // Only writes the table's key column could refuse need to run one by one.
    const unique = record.keyColumn
    const conflictFree = unique === null || unique === key?.name || !writes.some((w) => w.values.get(unique) !== undefined && w.values.get(unique) !== null)
    await applyRowWrites(tx, record, rt, writes, tx.timestamp(), conflictFree)
    if (stop) throw stop
    if (problems.length > 0) throw rowProblemsError(problems)
    if (nextId - 1 > lastRowId) await query(tx, 'UPDATE tables_catalog SET last_row_id = $2::int WHERE id = $1::text', [record.id, nextId - 1])
    const insertedIds = writes.filter((w) => w.type === 'insert').map((w) => w.id)
    const updatedIds = writes.filter((w) => w.type === 'patch').map((w) => w.id)
    const all = await selectRows(tx, rt, [...new Set([...insertedIds, ...updatedIds])])
    const insertedSet = new Set(insertedIds)
    return {
      inserted: [...insertedSet].map((id) => rowFromRaw(rt, all.get(id)!)),
      updated: [...new Set(updatedIds)].filter((id) => !insertedSet.has(id)).map((id) => rowFromRaw(rt, all.get(id)!)),
      warnings: [...warnings],
    }
  })
}
