import type { Row } from 'botshelf/api'
import type { FindPlan, GroupFindPlan, GroupOutput, RowsFindPlan, SortDirection } from '../../tables/find/index.js'
import { countsEveryRow, planFind, projectRow } from '../../tables/find/index.js'
import { queryRegexBudget } from '../../tables/regex-budget.js'
import type { FindQuery, FindResult, TableRecord } from '../../tables/types.js'
import { arrangeHybridRows, lexicalDepth, planHybridFetch, rankTableSearch, type QueryVector } from '../../tables/row-vectors/index.js'
import { nearestRowIds } from './row-vectors.js'
import { findCatalogRow, toRecord } from './catalog-records.js'
import type { CatalogCache, CachedCatalogEntry } from './catalog-cache.js'
import { tableNotFound } from '../../tables/table-rules.js'
import { decodeValue } from './columns.js'
import { consistently, inTransaction, query, quoteIdent, sqlState, type PgTablesContext } from './context.js'
import { compileFilterSql, hasRegex, type RegexMatches } from './filter-sql.js'
import { SqlParams } from './params.js'
import { preparedTextsOf } from '../prepared-texts.js'
import { matchRegexValues } from './regex-matches.js'
import { foldDiacritics } from './search-folding.js'
import { columnSqlOf, runtimeOf, SEARCH_COLUMN, systemColumns, type PgTableRuntime } from './runtime.js'

/** A compiled find: SQL (asking for limit + 1 rows to learn `hasMore`), its params, and the decoder of a result row. */
export interface CompiledFind {
  sql: string
  params: unknown[]
  decode: (raw: Record<string, unknown>) => Record<string, unknown>
}

const ALIAS = 't'

/** A condition over no column of the rows (the cached catalog record's guard), its values added to `params`. */
export type FindGuard = (params: SqlParams) => string

/**
 * A similarity in [0, 1) from a `ts_rank` (0 or more; higher is better): `r / (1 + r)`.
 *
 * @example
 * ```ts
 * similarityFromRank(0.1) // 0.0909…
 * ```
 */
export function similarityFromRank(rank: number): number {
  const r = Math.max(0, rank)
  return r / (1 + r)
}

/**
 * The search as a `tsquery` expression over `params`: any of the words, diacritics folded as in the search
 * column, each parsed as a phrase by the `simple` configuration (so `foo_bar` is the phrase `foo bar`, as FTS5 reads a quoted word), and no query syntax leaks in.
 */
function searchQuery(words: readonly string[], params: SqlParams): string {
  return `(${words.map((w) => `phraseto_tsquery('simple'::regconfig, ${params.add(foldDiacritics(w), 'text')})`).join(' || ')})`
}

/**
 * Order: SQLite puts NULL first going up and last going down; PostgreSQL needs to be told. The user columns' indexes
 * are built `NULLS FIRST` (ddl.ts), so both directions walk them; `id`, `created_at` and `updated_at` are never NULL
 * and take no NULLS clause, which would keep their indexes (the primary key's) from giving the order: measured on
 * 1M rows, a first page by id went from a sort of every matching row to an index walk (bench/README.md).
 */
const sqlDirection = (direction: SortDirection) => (direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST')
const systemDirection = (direction: SortDirection) => (direction === 'desc' ? 'DESC' : 'ASC')
const isSystemColumn = (column: string) => Object.hasOwn(systemColumns, column)

/** The candidates of a hybrid search: only these rows are read, each with its fused `similarity`. */
interface HybridCandidates {
  ids: readonly number[]
  similarity: ReadonlyMap<number, number>
}

function compileRows(rt: PgTableRuntime, plan: RowsFindPlan, matches: RegexMatches, candidates?: HybridCandidates, guard?: FindGuard): CompiledFind {
  const columnSql = columnSqlOf(rt, ALIAS)
  const params = new SqlParams()
  const from = plan.search ? `, LATERAL (SELECT ${searchQuery(plan.search, params)} AS q) s` : ''
  const conditions = [compileFilterSql(plan.filter, columnSql, params, matches)]
  if (candidates) conditions.push(`${ALIAS}.id = ANY(${params.add(candidates.ids, 'int[]')})`)
  if (plan.search) conditions.push(`${ALIAS}.${SEARCH_COLUMN} @@ s.q`)
  if (guard) conditions.push(guard(params))
  const rank = `ts_rank(${ALIAS}.${SEARCH_COLUMN}, s.q, 1)`
  let order = plan.order.by === 'similarity' ? `${rank} ${plan.order.direction === 'asc' ? 'ASC' : 'DESC'}` : `${columnSql(plan.order.column)} ${(isSystemColumn(plan.order.column) ? systemDirection : sqlDirection)(plan.order.direction)}`
  if (!(plan.order.by === 'column' && plan.order.column === 'id')) order += `, ${ALIAS}.id ASC`
  const selected = plan.projection ? new Set(plan.projection.columns) : undefined
  const columns = selected ? rt.columns.filter((c) => selected.has(c.name)) : rt.columns
  const columnsSql = [`${ALIAS}.id`, `${ALIAS}.created_at`, `${ALIAS}.updated_at`, ...columns.map((c) => `${ALIAS}.${quoteIdent(c.physical)}`)]
  if (plan.search) columnsSql.push(`${rank} AS __rank`)
  const limit = params.add(plan.limit + 1, 'int')
  const offset = params.add(plan.offset, 'int')
  const sql = `SELECT ${columnsSql.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS}${from} WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = { id: raw['id'], createdAt: raw['created_at'], updatedAt: raw['updated_at'], computed: {} }
    for (const c of columns) row[c.name] = decodeValue(c.kind, raw[c.physical])
    if (plan.search) row['similarity'] = similarityFromRank(raw['__rank'] as number)
    if (candidates) row['similarity'] = candidates.similarity.get(raw['id'] as number) ?? 0
    return plan.projection ? projectRow(row, plan.projection.paths) : row
  }
  return { sql, params: params.values, decode }
}

const AGGREGATES: Readonly<Record<Exclude<GroupOutput['op'], 'key'>, (column: string) => string>> = {
  count: (c) => `count(${c})::int`,
  // As double precision: over `id` (an integer) PostgreSQL would answer bigint and numeric, which arrive as text.
  sum: (c) => `coalesce(sum(${c}), 0)::float8`,
  avg: (c) => `avg(${c})::float8`,
  max: (c) => `max(${c})`,
  min: (c) => `min(${c})`,
  // As JSON text, so every kind comes back the same way; NULL when the group has no value.
  unique: (c) => `to_json(array_agg(DISTINCT ${c}) FILTER (WHERE ${c} IS NOT NULL))::text`,
}

/** The SQL of one group output: the key column, or its aggregate; a count of every row is `count(*)` (decision 1479). */
function aggregateSql(output: GroupOutput, columnSql: (column: string) => string): string {
  if (output.op === 'key') return columnSql(output.column)
  return countsEveryRow(output) ? 'count(*)::int' : AGGREGATES[output.op](columnSql(output.column))
}

function compileGroup(rt: PgTableRuntime, plan: GroupFindPlan, matches: RegexMatches, guard?: FindGuard): CompiledFind {
  const columnSql = columnSqlOf(rt, ALIAS)
  const params = new SqlParams()
  const alias = (output: number) => `g${output}`
  const from = plan.search ? `, LATERAL (SELECT ${searchQuery(plan.search, params)} AS q) s` : ''
  // No `WHERE true` without a filter: the statement a whole-table count compiles to is the plain `count(*)`.
  const conditions = plan.filter.type === 'all' ? [] : [compileFilterSql(plan.filter, columnSql, params, matches)]
  if (plan.search) conditions.push(`${ALIAS}.${SEARCH_COLUMN} @@ s.q`)
  const selects = plan.outputs.map((o, i) => `${aggregateSql(o, columnSql)} AS ${alias(i)}`)
  const groupBy = plan.outputs.filter((o) => o.op === 'key').map((o) => columnSql(o.column))
  const order = plan.order.map((o) => `${alias(o.output)} ${sqlDirection(o.direction)}`)
  const limit = params.add(plan.limit + 1, 'int')
  const offset = params.add(plan.offset, 'int')
  const sql =
    `SELECT ${selects.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS}${from}` +
    (conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '') +
    (groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '') +
    // As HAVING: without keys, aggregates answer one row even over no rows; HAVING drops it when the guard fails.
    (guard ? ` HAVING ${guard(params)}` : '') +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
    ` LIMIT ${limit} OFFSET ${offset}`
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {}
    plan.outputs.forEach((o, i) => {
      const value = raw[alias(i)]
      if (o.op === 'unique') row[o.key] = value === null || value === undefined ? [] : (JSON.parse(value as string) as unknown[]).map((v) => decodeValue(o.kind, v))
      else if (o.op === 'key' || o.op === 'max' || o.op === 'min') row[o.key] = decodeValue(o.kind, value)
      else row[o.key] = value ?? null
    })
    return row
  }
  return { sql, params: params.values, decode }
}

/**
 * Compiles a validated find (`planFind`) to PostgreSQL, with the same results as SQLite's compiler: the filter as a
 * WHERE clause, search over the generated `tsvector` column ranked by `ts_rank`, sorting with NULL first going
 * up and `id` as tie-breaker, groups with `GROUP BY` and aggregates, and `LIMIT limit + 1` for `hasMore`. A `guard` makes the statement answer no row at all unless it holds.
 *
 * @example
 * ```ts
 * const find = compileFind(rt, planFind(rt, { filter: { status: 'open' } }), new Map())
 * const rows = (await query(context, find.sql, find.params)).map(find.decode)
 * ```
 */
export function compileFind(rt: PgTableRuntime, plan: FindPlan, matches: RegexMatches = new Map(), guard?: FindGuard): CompiledFind {
  return plan.type === 'group' ? compileGroup(rt, plan, matches, guard) : compileRows(rt, plan, matches, undefined, guard)
}

/**
 * Finds rows (filter, search, select, order, limit/offset) or groups (`group`): the query is validated into a
 * plan, its `$regex` values matched under a query budget (decision 0701), compiled to one statement, and its result
 * decoded. With `$regex`, both reads see one snapshot. With `cache` (a port on the pool), a plain find whose table
 * is in it runs in one round trip: the rows, under a check in the same statement that the cached catalog record
 * is still current. When it answers nothing (no match, or the table changed through any port or server), the find
 * runs on the catalog as it now is, whose record replaces the entry (decision 0963).
 *
 * @example
 * ```ts
 * const { rows, hasMore } = await findRows(context, 'bot_1', 'ordersTable', { filter: { total: { $gte: 10 } }, limit: 50 })
 * ```
 */
export async function findRows(context: PgTablesContext, botId: string, ref: string, request: FindQuery, cache?: CatalogCache): Promise<FindResult> {
  const cacheable = cache !== undefined && cache.capacity > 0 && !inTransaction(context.sql) && request.vector === undefined
  if (cacheable) {
    const entry = cache.get(botId, ref)
    const page = entry && (await guardedFind(context, entry, request))
    if (page) return page
  }
  const row = await findCatalogRow(context, botId, ref)
  if (!row) {
    if (cacheable) cache.delete(botId, ref)
    throw tableNotFound(ref)
  }
  const record = toRecord(row)
  if (cacheable) cache.set(botId, ref, { record, version: String(row.version), byName: row.id !== ref })
  return findWithRecord(context, record, request)
}

/** A find on a known catalog record (read in this call, or checked by the caller). */
async function findWithRecord(context: PgTablesContext, record: TableRecord, request: FindQuery): Promise<FindResult> {
  const rt = runtimeOf(record)
  const plan = planFind(rt, request)
  const run = async (tx: PgTablesContext) => {
    const matches = hasRegex(plan.filter) ? await matchRegexValues(tx, rt, plan.filter, queryRegexBudget()) : new Map()
    if (plan.type === 'rows' && plan.search && request.vector) {
      const hybrid = await hybridPage(tx, rt, plan, request.vector, matches)
      if (hybrid) return hybrid
    }
    const rows = await runCompiled(tx, compileFind(rt, plan, matches))
    return { rows: rows.slice(0, plan.limit), hasMore: rows.length > plan.limit }
  }
  // Several statements (regex values, or the rankings and the read of a hybrid search) read one snapshot.
  const page = hasRegex(plan.filter) || request.vector ? await consistently(context, run) : await run(context)
  return pageResult(page, plan)
}

function pageResult(page: { rows: Row[]; hasMore: boolean }, plan: FindPlan): FindResult {
  const result: FindResult = { ...page, offset: plan.offset, limit: plan.limit }
  if (plan.warnings.length > 0) result.warnings = plan.warnings
  return result
}

/** SQLSTATEs of a statement naming a table or column that is gone (the cached record is stale). */
const GONE: ReadonlySet<string> = new Set(['42P01', '42703'])

/**
 * A find on a cached catalog record, in one statement that answers nothing unless the record is still the
 * catalog's (same id, bot, version and, for a name reference, name): the find's page when it has rows (or groups),
 * `undefined` when the record may be stale (the page is empty, the query does not fit the cached schema, or a
 * table or column it names is gone), or `null` when the find needs several statements (`$regex`) and is left to
 * the uncached path with the entry kept. An empty page is ambiguous (no match, or a failed guard): the caller
 * runs the find again on the catalog as it now is.
 */
async function guardedFind(context: PgTablesContext, entry: CachedCatalogEntry, request: FindQuery): Promise<FindResult | undefined | null> {
  const rt = runtimeOf(entry.record)
  let plan: FindPlan
  try {
    plan = planFind(rt, request)
  } catch {
    // Refused on the cached schema: the table may have changed since; the fresh path decides.
    return undefined
  }
  if (hasRegex(plan.filter)) return null
  // A STABLE function of parameters only: PostgreSQL calls it once, before the rows, as a one-time filter, in the
  // statement's snapshot (decision 0965; an EXISTS subquery here cost 0.05 ms of planning and running per find,
  // the function 0.02 ms). The name is NULL for a reference by id.
  const guard: FindGuard = (params) =>
    `tables_catalog_current(${params.add(entry.record.id, 'text')}, ${params.add(entry.record.botId, 'text')}, ${params.add(entry.version, 'bigint')}, ${params.add(entry.byName ? entry.record.name : null, 'text')})`
  let rows: Row[]
  try {
    rows = await runCompiled(context, compileFind(rt, plan, new Map(), guard))
  } catch (error) {
    const state = sqlState(error)
    if (state !== undefined && GONE.has(state)) return undefined
    throw error
  }
  if (rows.length === 0) return undefined
  return pageResult({ rows: rows.slice(0, plan.limit), hasMore: rows.length > plan.limit }, plan)
}

/**
 * Runs a compiled find, prepared once its text has repeated (on the pool only; decision 0964): a connection keeps
 * a bounded number of find statements, and values stay parameters.
 */
async function runCompiled(context: PgTablesContext, compiled: CompiledFind): Promise<Row[]> {
  const prepared = !inTransaction(context.sql) && preparedTextsOf(context.sql).shouldPrepare(compiled.sql, compiled.params)
  return (await query(context, compiled.sql, compiled.params, { prepared })).map(compiled.decode) as Row[]
}

/**
 * A search ranked by words and vectors (decision 0860), as on SQLite: the full-text matches and the nearest row
 * vectors, both under the filter, fused; `undefined` when no row the filter keeps has a vector of the query's
 * embedder (the search is then lexical).
 */
async function hybridPage(context: PgTablesContext, rt: PgTableRuntime, plan: RowsFindPlan, vector: QueryVector, matches: RegexMatches): Promise<{ rows: Row[]; hasMore: boolean } | undefined> {
  const nearest = await nearestRowIds(context, rt, vector, plan.filter, matches)
  if (nearest.length === 0) return undefined
  const { projection: _projection, ...rest } = plan
  const lexicalPlan: RowsFindPlan = { ...rest, order: { by: 'similarity', direction: 'desc' }, limit: lexicalDepth(plan), offset: 0, projection: { columns: [], paths: [] } }
  const lexical = (await runCompiled(context, compileRows(rt, lexicalPlan, matches))).map((row) => row.id)
  const fetch = planHybridFetch(plan, rankTableSearch(lexical, nearest))
  return arrangeHybridRows(fetch, await runCompiled(context, compileRows(rt, fetch.plan, matches, fetch)), plan.limit)
}
