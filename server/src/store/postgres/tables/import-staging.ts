import { tablesLimits } from 'botshelf/api'
import { importOutOfStep, stagingTableName, tableChangedDuringImport, type PublishedRows } from '../../tables/import-staging.js'
import { keyConflict, rowIdsExhausted } from '../../tables/row-rules.js'
import { loadTable, reserveIds } from './catalog.js'
import { castOf, encodeValue, pgTypeOf } from './columns.js'
import { atomically, query, quoteIdent, sqlState, UNIQUE_VIOLATION, type PgTablesContext } from './context.js'
import { getJob, updateJob } from './jobs.js'
import { validateInsert } from './rows.js'
import { runtimeOf, type PgTableRuntime } from './runtime.js'

/**
 * An import's staging table on PostgreSQL (decision 1473): `seq` (the row's position in the file, from 0) and the
 * table's own columns, typed as the table stores them, with a unique index on the key column so a value the file
 * repeats is refused while staging. No other index.
 */

async function stagedCount(context: PgTablesContext, name: string): Promise<number> {
  const [exists] = await query(context, 'SELECT to_regclass($1::text) IS NOT NULL AS found', [quoteIdent(name)])
  if (!exists?.['found']) return 0
  const [row] = await query(context, `SELECT coalesce(max(seq) + 1, 0)::int AS n FROM ${quoteIdent(name)}`)
  return row?.['n'] as number
}

function recordFields(rt: PgTableRuntime): string {
  return ['seq integer', ...rt.columns.map((c) => `${quoteIdent(c.physical)} ${castOf(c.kind) === 'text::json' ? 'json' : castOf(c.kind)}`)].join(', ')
}

/**
 * Checks rows as `importRows` would (schema, text PostgreSQL can store, key values against stored rows and every
 * row staged before, row ids left) and appends them to the staging table of `tableJobId`, created on the first
 * step; all or nothing. Rows `firstRowIndex`… of the file: a step that does not follow the rows staged so far is refused.
 *
 * @example
 * ```ts
 * await stageImportRows(context, 'bot_1', 'ordersTable', job.id, firstThousand, 0) // { warnings: [] }
 * ```
 */
export async function stageImportRows(
  context: PgTablesContext,
  botId: string,
  ref: string,
  tableJobId: string,
  input: ReadonlyArray<Record<string, unknown>>,
  firstRowIndex: number,
): Promise<{ warnings: string[] }> {
  return atomically(context, async (tx) => {
    const record = await loadTable(tx, botId, ref)
    const rt = runtimeOf(record)
    const name = stagingTableName(tableJobId)
    const staged = await stagedCount(tx, name)
    if (staged !== firstRowIndex) throw importOutOfStep('staged', staged, firstRowIndex)
    const validated = validateInsert(rt, record, input, firstRowIndex)
    const [last] = await query(tx, 'SELECT last_row_id FROM tables_catalog WHERE id = $1::text', [record.id])
    const lastId = (last?.['last_row_id'] as number | undefined) ?? 0
    if (lastId + firstRowIndex + validated.rows.length > tablesLimits.maxRowId) throw rowIdsExhausted(Math.max(firstRowIndex, tablesLimits.maxRowId - lastId))
    const key = record.keyColumn === null ? undefined : rt.byName.get(record.keyColumn)!
    const table = quoteIdent(name)
    if (staged === 0) {
      const columns = rt.columns.map((c) => `, ${quoteIdent(c.physical)} ${pgTypeOf(c.kind)}`).join('')
      await query(tx, `CREATE TABLE IF NOT EXISTS ${table} (seq integer PRIMARY KEY${columns})`)
      if (key) await query(tx, `CREATE UNIQUE INDEX IF NOT EXISTS ${quoteIdent(`${name}_key`)} ON ${table} (${quoteIdent(key.physical)})`)
    }
    if (key) {
      // A key value the table holds already, or one staged before: the first such row of the step is refused.
      const values = validated.rows.map((values) => encodeValue(key.kind, values.get(key.name)))
      const column = quoteIdent(key.physical)
      const [found] = await query(
        tx,
        `SELECT min(x.i)::int AS i FROM unnest($1::${castOf(key.kind)}[]) WITH ORDINALITY AS x(v, i)
         WHERE x.v IS NOT NULL AND (EXISTS (SELECT 1 FROM ${quoteIdent(rt.physical)} t WHERE t.${column} = x.v) OR EXISTS (SELECT 1 FROM ${table} s WHERE s.${column} = x.v))`,
        [values],
      )
      const at = found?.['i'] as number | null | undefined
      if (at !== null && at !== undefined) throw keyConflict(key.name, firstRowIndex + at - 1, validated.rows[at - 1]!.get(key.name) ?? null)
    }
    const records = validated.rows.map((values, index) => {
      const entry: Record<string, unknown> = { seq: firstRowIndex + index }
      for (const c of rt.columns) {
        const value = values.get(c.name)
        entry[c.physical] = c.kind === 'object' || c.kind === 'array' ? (value ?? null) : encodeValue(c.kind, value)
      }
      return entry
    })
    const columns = ['seq', ...rt.columns.map((c) => quoteIdent(c.physical))].join(', ')
    try {
      await query(tx, `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_to_recordset($1::text::json) AS x(${recordFields(rt)})`, [JSON.stringify(records)])
    } catch (error) {
      if (!key || sqlState(error) !== UNIQUE_VIOLATION) throw error
      // Two rows of this step with one key value: the second is refused.
      const seen = new Set<unknown>()
      const index = validated.rows.findIndex((values) => {
        const value = encodeValue(key.kind, values.get(key.name))
        if (value === null) return false
        if (seen.has(value)) return true
        seen.add(value)
        return false
      })
      throw keyConflict(key.name, firstRowIndex + Math.max(0, index), validated.rows[Math.max(0, index)]?.get(key.name) ?? null)
    }
    return { warnings: validated.warnings }
  })
}

/**
 * How many rows the staging table of `tableJobId` holds (0 when it has none).
 *
 * @example
 * ```ts
 * await stagedImportRows(context, job.id) // 120000
 * ```
 */
export async function stagedImportRows(context: PgTablesContext, tableJobId: string): Promise<number> {
  return stagedCount(context, stagingTableName(tableJobId))
}

/**
 * Moves staged rows `from` to `from + count - 1` into the table in file order (ids reserved at once, new times) with
 * one `INSERT … SELECT`, and records `from + count` as the job's `rowsCommitted`, in one transaction. Refused when
 * the job's `rowsCommitted` is not `from`, when the table's columns changed since staging, or when a key value was
 * written to the table since it was checked (`KEY_CONFLICT` naming the row of the file).
 *
 * @example
 * ```ts
 * await publishImportRows(context, 'bot_1', 'ordersTable', job.id, 0, 2000) // { published: 2000, ids: [1, 2, …] }
 * ```
 */
export async function publishImportRows(context: PgTablesContext, botId: string, ref: string, tableJobId: string, from: number, count: number): Promise<PublishedRows> {
  return atomically(context, async (tx) => {
    const job = await getJob(tx, tableJobId)
    if (job?.rowsCommitted !== from) throw importOutOfStep('published', job?.rowsCommitted ?? 0, from)
    const name = stagingTableName(tableJobId)
    const available = Math.max(0, Math.min(count, (await stagedCount(tx, name)) - from))
    if (available === 0) return { published: 0, ids: [] }
    const record = await loadTable(tx, botId, ref)
    const rt = runtimeOf(record)
    const staged = await query(tx, `SELECT attname AS name FROM pg_attribute WHERE attrelid = to_regclass($1::text) AND attnum > 0 AND NOT attisdropped AND attname <> 'seq' ORDER BY attnum`, [
      quoteIdent(name),
    ])
    if (staged.map((r) => r['name']).join(',') !== rt.columns.map((c) => c.physical).join(',')) throw tableChangedDuringImport(record.name)
    const { lastRowId } = await reserveIds(tx, botId, ref, available)
    if (lastRowId + available > tablesLimits.maxRowId) throw rowIdsExhausted(from + Math.max(0, tablesLimits.maxRowId - lastRowId))
    if (record.keyColumn !== null) {
      const conflict = await firstConflict(tx, rt, name, record.keyColumn, from, available)
      if (conflict) throw conflict
    }
    const columns = rt.columns.map((c) => `, ${quoteIdent(c.physical)}`).join('')
    const rows = await query(
      tx,
      `INSERT INTO ${quoteIdent(rt.physical)} (id, created_at, updated_at${columns}) SELECT $1::int + 1 + seq - $2::int, $3::text, $3::text${columns}
       FROM ${quoteIdent(name)} WHERE seq >= $2::int AND seq < $2::int + $4::int ORDER BY seq RETURNING id`,
      [lastRowId, from, tx.timestamp(), available],
    )
    const ids = rows.map((row) => row['id'] as number).sort((a, b) => a - b)
    await updateJob(tx, tableJobId, { rowsCommitted: from + ids.length })
    return { published: ids.length, ids }
  })
}

/** The `KEY_CONFLICT` of the first staged row of a step whose key value the table holds now, if any. */
async function firstConflict(context: PgTablesContext, rt: PgTableRuntime, name: string, keyColumn: string, from: number, count: number) {
  const column = quoteIdent(rt.byName.get(keyColumn)!.physical)
  const [found] = await query(
    context,
    `SELECT s.seq AS seq, s.${column} AS value FROM ${quoteIdent(name)} s WHERE s.seq >= $1::int AND s.seq < $1::int + $2::int
     AND EXISTS (SELECT 1 FROM ${quoteIdent(rt.physical)} t WHERE t.${column} = s.${column}) ORDER BY s.seq LIMIT 1`,
    [from, count],
  )
  return found && keyConflict(keyColumn, found['seq'] as number, found['value'] ?? null)
}

/**
 * Drops the staging table of `tableJobId`, if any: after the last step, or when the import fails.
 *
 * @example
 * ```ts
 * await dropImportStaging(context, job.id)
 * ```
 */
export async function dropImportStaging(context: PgTablesContext, tableJobId: string): Promise<void> {
  await query(context, `DROP TABLE IF EXISTS ${quoteIdent(stagingTableName(tableJobId))}`)
}
