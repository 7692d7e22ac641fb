import { tablesLimits } from 'botshelf/api'
import { importOutOfStep, stagingTableName, tableChangedDuringImport, type PublishedRows } from '../../tables/import-staging.js'
import { keyConflict, rowIdsExhausted } from '../../tables/row-rules.js'
import { rowProblemsError, validateRows } from '../../tables/row-validation.js'
import { loadTable } from './catalog.js'
import { runtimeOf } from './catalog-records.js'
import { encodeValue, quoteIdent, sqlTypeOf } from './columns.js'
import { isUniqueViolation, type TablesContext } from './context.js'
import { getJob, updateJob } from './jobs.js'
import type { TableRuntime } from './runtime.js'

/**
 * An import's staging table on SQLite (decision 1473): `seq` (the row's position in the file, from 0) and the
 * table's own columns, typed and encoded as the table stores them, with a unique index on the key column so a
 * value the file repeats is refused while staging. No other index: staging a row costs one b-tree append.
 */

function stagingExists(context: TablesContext, name: string): boolean {
  return context.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined
}

function stagedCount(context: TablesContext, name: string): number {
  if (!stagingExists(context, name)) return 0
  return ((context.db.prepare(`SELECT max(seq) FROM ${quoteIdent(name)}`).pluck().get() as number | null) ?? -1) + 1
}

function createStaging(context: TablesContext, name: string, rt: TableRuntime, keyPhysical: string | undefined): void {
  const columns = rt.columns.map((c) => `, ${quoteIdent(c.physical)} ${sqlTypeOf(c.kind)}`).join('')
  context.db.exec(`CREATE TABLE ${quoteIdent(name)} (seq INTEGER PRIMARY KEY${columns})`)
  if (keyPhysical) context.db.exec(`CREATE UNIQUE INDEX ${quoteIdent(`${name}_key`)} ON ${quoteIdent(name)} (${quoteIdent(keyPhysical)})`)
}

/**
 * Checks rows as `importRows` would (schema, key values against stored rows and every row staged before, row ids
 * left) and appends them to the staging table of `tableJobId`, created on the first step; all or nothing. Rows
 * `firstRowIndex`… of the file: a step that does not follow the rows staged so far is refused.
 *
 * @example
 * ```ts
 * stageImportRows(context, 'bot_1', 'ordersTable', job.id, firstThousand, 0) // { warnings: [] }
 * ```
 */
export function stageImportRows(
  context: TablesContext,
  botId: string,
  ref: string,
  tableJobId: string,
  input: ReadonlyArray<Record<string, unknown>>,
  firstRowIndex: number,
): { warnings: string[] } {
  return context.db.transaction(() => {
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    const name = stagingTableName(tableJobId)
    const staged = stagedCount(context, name)
    if (staged !== firstRowIndex) throw importOutOfStep('staged', staged, firstRowIndex)
    const validated = validateRows(rt.columns, input, 'insert', record.factor)
    if (validated.problems.length > 0) throw rowProblemsError(validated.problems, firstRowIndex)
    const lastId = (context.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(rt.physical) as number | undefined) ?? 0
    if (lastId + firstRowIndex + validated.rows.length > tablesLimits.maxRowId) throw rowIdsExhausted(Math.max(firstRowIndex, tablesLimits.maxRowId - lastId))
    const key = record.keyColumn === null ? undefined : rt.byName.get(record.keyColumn)!
    if (staged === 0 && !stagingExists(context, name)) createStaging(context, name, rt, key?.physical)
    const keyTaken = key && context.prepare(`SELECT 1 FROM ${quoteIdent(rt.physical)} WHERE ${quoteIdent(key.physical)} = ? LIMIT 1`)
    const columns = ['seq', ...rt.columns.map((c) => quoteIdent(c.physical))]
    const insert = context.prepare(`INSERT INTO ${quoteIdent(name)} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
    const kinds = rt.columns.map((c) => c.kind)
    const names = rt.columns.map((c) => c.name)
    const encoded: Array<string | number | null> = new Array(kinds.length + 1)
    validated.rows.forEach((values, index) => {
      encoded[0] = firstRowIndex + index
      for (let i = 0; i < kinds.length; i++) encoded[i + 1] = encodeValue(kinds[i]!, values.get(names[i]!))
      const keyValue = key ? values.get(key.name) : undefined
      if (key && keyValue !== undefined && keyValue !== null && keyTaken!.get(encodeValue(key.kind, keyValue)) !== undefined) {
        throw keyConflict(key.name, firstRowIndex + index, keyValue)
      }
      try {
        insert.run(...encoded)
      } catch (error) {
        if (key && isUniqueViolation(error)) throw keyConflict(key.name, firstRowIndex + index, keyValue ?? null)
        throw error
      }
    })
    return { warnings: validated.warnings }
  })()
}

/**
 * How many rows the staging table of `tableJobId` holds (0 when it has none).
 *
 * @example
 * ```ts
 * stagedImportRows(context, job.id) // 120000
 * ```
 */
export function stagedImportRows(context: TablesContext, tableJobId: string): number {
  return stagedCount(context, stagingTableName(tableJobId))
}

/**
 * Moves staged rows `from` to `from + count - 1` into the table in file order (new ids and times, as an insert) with
 * one `INSERT … SELECT`, and records `from + count` as the job's `rowsCommitted`, in one transaction. Refused when
 * the job's `rowsCommitted` is not `from` (so a step cannot run twice nor skip one), when the table's columns
 * changed since staging, or when a key value was written to the table since it was checked (`KEY_CONFLICT` naming
 * the row of the file).
 *
 * @example
 * ```ts
 * publishImportRows(context, 'bot_1', 'ordersTable', job.id, 0, 2000) // { published: 2000, ids: [1, 2, …] }
 * ```
 */
export function publishImportRows(context: TablesContext, botId: string, ref: string, tableJobId: string, from: number, count: number): PublishedRows {
  return context.db.transaction(() => {
    const job = getJob(context, tableJobId)
    if (job?.rowsCommitted !== from) throw importOutOfStep('published', job?.rowsCommitted ?? 0, from)
    const record = loadTable(context, botId, ref)
    const rt = runtimeOf(record)
    const name = stagingTableName(tableJobId)
    const stagedColumns = (context.db.prepare(`SELECT name FROM pragma_table_info(?) WHERE name <> 'seq' ORDER BY cid`).pluck().all(name) as string[]).join(',')
    if (stagedColumns !== rt.columns.map((c) => c.physical).join(',')) throw tableChangedDuringImport(record.name)
    const columns = rt.columns.map((c) => quoteIdent(c.physical)).join(', ')
    const now = context.timestamp()
    const insert = context.prepare(
      `INSERT INTO ${quoteIdent(rt.physical)} (created_at, updated_at${columns ? `, ${columns}` : ''}) SELECT ?, ?${columns ? `, ${columns}` : ''} FROM ${quoteIdent(name)} WHERE seq >= ? AND seq < ? ORDER BY seq RETURNING id`,
    )
    let ids: number[]
    try {
      ids = (insert.all(now, now, from, from + count) as Array<{ id: number }>).map((row) => row.id)
    } catch (error) {
      if (!isUniqueViolation(error) || record.keyColumn === null) throw error
      throw firstConflict(context, rt, name, record.keyColumn, from, count)
    }
    if (ids.length > 0 && ids[ids.length - 1]! > tablesLimits.maxRowId) throw rowIdsExhausted(from + ids.findIndex((id) => id > tablesLimits.maxRowId))
    updateJob(context, tableJobId, { rowsCommitted: from + ids.length })
    return { published: ids.length, ids }
  })()
}

/** The `KEY_CONFLICT` of the first staged row of a step whose key value the table holds now. */
function firstConflict(context: TablesContext, rt: TableRuntime, name: string, keyColumn: string, from: number, count: number) {
  const key = rt.byName.get(keyColumn)!
  const column = quoteIdent(key.physical)
  const found = context.db
    .prepare(`SELECT s.seq AS seq, s.${column} AS value FROM ${quoteIdent(name)} s WHERE s.seq >= ? AND s.seq < ? AND EXISTS (SELECT 1 FROM ${quoteIdent(rt.physical)} t WHERE t.${column} = s.${column}) ORDER BY s.seq LIMIT 1`)
    .get(from, from + count) as { seq: number; value: unknown } | undefined
  return keyConflict(keyColumn, found?.seq ?? from, found?.value ?? null)
}

/**
 * Drops the staging table of `tableJobId`, if any: after the last step, or when the import fails.
 *
 * @example
 * ```ts
 * dropImportStaging(context, job.id)
 * ```
 */
export function dropImportStaging(context: TablesContext, tableJobId: string): void {
  context.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(stagingTableName(tableJobId))}`)
}
