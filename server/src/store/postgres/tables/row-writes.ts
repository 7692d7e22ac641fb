import { keyConflict } from '../../tables/row-rules.js'
import type { TableRecord } from '../../tables/types.js'
import { castOf, encodeValue } from './columns.js'
import { query, quoteIdent, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { insertRows, patchRows } from './row-io.js'
import type { PgTableRuntime } from './runtime.js'

/** One row write of a batch: an insert with its new id, or a patch of an existing row; `index` numbers it in errors. */
export type RowWrite = { type: 'insert' | 'patch'; id: number; values: Map<string, unknown>; index: number }

/** The value a json_to_recordset field takes for a column: JSON values as they are, others encoded. */
function recordValue(kind: string, value: unknown): unknown {
  return kind === 'object' || kind === 'array' ? (value ?? null) : encodeValue(kind as never, value)
}

/** Patches of distinct rows in one statement: each column is set only on the rows whose patch names it. */
async function patchTogether(context: PgTablesContext, rt: PgTableRuntime, patches: readonly RowWrite[], now: string): Promise<void> {
  const named = rt.columns.filter((c) => patches.some((p) => p.values.has(c.name)))
  const records = patches.map(({ id, values }) => {
    const entry: Record<string, unknown> = { id }
    for (const c of named) {
      entry[`s_${c.physical}`] = values.has(c.name)
      entry[c.physical] = recordValue(c.kind, values.get(c.name))
    }
    return entry
  })
  const fields = ['id integer', ...named.flatMap((c) => [`${quoteIdent(c.physical)} ${castOf(c.kind) === 'text::json' ? 'json' : castOf(c.kind)}`, `${quoteIdent(`s_${c.physical}`)} boolean`])]
  const sets = named.map((c) => `${quoteIdent(c.physical)} = CASE WHEN x.${quoteIdent(`s_${c.physical}`)} THEN x.${quoteIdent(c.physical)} ELSE t.${quoteIdent(c.physical)} END`)
  sets.push('updated_at = $2::text')
  await query(
    context,
    `UPDATE ${quoteIdent(rt.physical)} AS t SET ${sets.join(', ')} FROM json_to_recordset($1::text::json) AS x(${fields.join(', ')}) WHERE t.id = x.id`,
    [JSON.stringify(records), now],
  )
}

/** Splits writes into runs of one type; a run of patches also ends where a row would be patched twice. */
function runsOf(writes: readonly RowWrite[]): RowWrite[][] {
  const runs: RowWrite[][] = []
  let ids = new Set<number>()
  for (const write of writes) {
    const last = runs[runs.length - 1]
    if (last && last[0]!.type === write.type && !(write.type === 'patch' && ids.has(write.id))) last.push(write)
    else {
      runs.push([write])
      ids = new Set()
    }
    ids.add(write.id)
  }
  return runs
}

/**
 * Applies row writes with the outcome of running them one by one in order, as SQLite does. When no write can
 * break the key column's uniqueness (`conflictFree`: the table has no key column, or no write sets a key value
 * another row may hold), consecutive writes of one kind go in one statement. Otherwise each write is its own
 * statement, all sent together; the first failure is reported, a duplicate key value as `KEY_CONFLICT` naming
 * `rows.<index>` of that write.
 *
 * @example
 * ```ts
 * await applyRowWrites(tx, record, rt, [{ type: 'insert', id: 8, values, index: 0 }], tx.timestamp(), true)
 * ```
 */
export async function applyRowWrites(context: PgTablesContext, record: TableRecord, rt: PgTableRuntime, writes: readonly RowWrite[], now: string, conflictFree: boolean): Promise<void> {
  if (conflictFree) {
    for (const run of runsOf(writes)) {
      if (run[0]!.type === 'insert') await insertRows(context, rt, run.map((w) => w.values), run[0]!.id, now, run.map((w) => w.id))
      else await patchTogether(context, rt, run, now)
    }
    return
  }
  const settled = await Promise.allSettled(
    writes.map((w) => (w.type === 'insert' ? insertRows(context, rt, [w.values], w.id, now) : patchRows(context, record, rt, [w], now))),
  )
  const failed = settled.findIndex((s) => s.status === 'rejected')
  if (failed < 0) return
  const error = (settled[failed] as PromiseRejectedResult).reason as unknown
  const { values, index } = writes[failed]!
  if (sqlState(error) === UNIQUE_VIOLATION && record.keyColumn) throw keyConflict(record.keyColumn, index, values.get(record.keyColumn) ?? null)
  throw error
}
