import type { Row } from 'botshelf/api'
import type { FindPlan, GroupFindPlan, GroupOutput, RowsFindPlan, SortDirection } from '../../tables/find/index.js'
import { countsEveryRow, planFind, projectRow } from '../../tables/find/index.js'
import { queryRegexBudget } from '../../tables/regex-budget.js'
import type { FindQuery, FindResult } from '../../tables/types.js'
import { arrangeHybridRows, lexicalDepth, planHybridFetch, rankTableSearch, type QueryVector } from '../../tables/row-vectors/index.js'
import { nearestRowIds } from './row-vectors.js'
import { loadTable } from './catalog.js'
import { runtimeOf } from './catalog-records.js'
import { decodeValue, quoteIdent } from './columns.js'
import { compileFilterSql } from './filter-sql.js'
import type { TablesContext } from './context.js'
import { columnSqlOf, type TableRuntime } from './runtime.js'

/** A compiled find: SQL (asking for limit + 1 rows to learn `hasMore`), its params, and the decoder of a result row. */
export interface CompiledFind {
  sql: string
  params: unknown[]
  decode: (raw: Record<string, unknown>) => Record<string, unknown>
}

const ALIAS = 't'

/**
 * An FTS5 query matching any of the words, each quoted so no FTS syntax leaks in.
 *
 * @example
 * ```ts
 * ftsMatch(['March', 'invoices']) // '"March" OR "invoices"'
 * ```
 */
export function ftsMatch(words: readonly string[]): string {
  return words.map((w) => `"${w}"`).join(' OR ')
}

/**
 * A similarity in [0, 1) from an FTS5 bm25 score (negative; lower is better): `r / (1 + r)` with `r = -bm25`.
 *
 * @example
 * ```ts
 * similarityFromBm25(-3) // 0.75
 * ```
 */
export function similarityFromBm25(score: number): number {
  const r = Math.max(0, -score)
  return r / (1 + r)
}

/** The join that keeps the rows matching the search, with their bm25 `s.score`. */
function searchJoin(rt: TableRuntime, words: readonly string[] | undefined): { sql: string; params: unknown[] } {
  if (!words) return { sql: '', params: [] }
  const fts = quoteIdent(rt.fts!)
  return { sql: `JOIN (SELECT rowid AS sid, bm25(${fts}) AS score FROM ${fts} WHERE ${fts} MATCH ?) s ON s.sid = ${ALIAS}.id`, params: [ftsMatch(words)] }
}

const sqlDirection = (direction: SortDirection) => (direction === 'desc' ? 'DESC' : 'ASC')

/** The candidates of a hybrid search: only these rows are read, each with its fused `similarity`. */
interface HybridCandidates {
  ids: readonly number[]
  similarity: ReadonlyMap<number, number>
}

function compileRows(rt: TableRuntime, plan: RowsFindPlan, candidates?: HybridCandidates): CompiledFind {
  const columnSql = columnSqlOf(rt, ALIAS)
  const search = searchJoin(rt, plan.search)
  const where = compileFilterSql(plan.filter, columnSql)
  if (candidates) {
    where.sql = `${ALIAS}.id IN (SELECT value FROM json_each(?)) AND (${where.sql})`
    where.params = [JSON.stringify(candidates.ids), ...where.params]
  }
  // bm25 scores are lower for better matches: similarity order is the opposite of score order.
  let order =
    plan.order.by === 'similarity' ? `s.score ${plan.order.direction === 'asc' ? 'DESC' : 'ASC'}` : `${columnSql(plan.order.column)} ${sqlDirection(plan.order.direction)}`
  if (!(plan.order.by === 'column' && plan.order.column === 'id')) order += `, ${ALIAS}.id ASC`
  const selected = plan.projection ? new Set(plan.projection.columns) : undefined
  const columns = selected ? rt.columns.filter((c) => selected.has(c.name)) : rt.columns
  const columnsSql = [`${ALIAS}.id`, `${ALIAS}.created_at`, `${ALIAS}.updated_at`, ...columns.map((c) => `${ALIAS}.${quoteIdent(c.physical)}`)]
  if (plan.search) columnsSql.push('s.score AS __score')
  const sql = `SELECT ${columnsSql.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS} ${search.sql} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = { id: raw['id'], createdAt: raw['created_at'], updatedAt: raw['updated_at'], computed: {} }
    for (const c of columns) row[c.name] = decodeValue(c.kind, raw[c.physical])
    if (plan.search) row['similarity'] = similarityFromBm25(raw['__score'] as number)
    if (candidates) row['similarity'] = candidates.similarity.get(raw['id'] as number) ?? 0
    return plan.projection ? projectRow(row, plan.projection.paths) : row
  }
  return { sql, params: [...search.params, ...where.params, plan.limit + 1, plan.offset], decode }
}

const AGGREGATES: Readonly<Record<Exclude<GroupOutput['op'], 'key'>, (column: string) => string>> = {
  count: (c) => `COUNT(${c})`,
  sum: (c) => `COALESCE(SUM(${c}), 0)`,
  avg: (c) => `AVG(${c})`,
  max: (c) => `MAX(${c})`,
  min: (c) => `MIN(${c})`,
  unique: (c) => `json_group_array(DISTINCT ${c})`,
}

/** The SQL of one group output: the key column, or its aggregate; a count of every row is `COUNT(*)`. */
function aggregateSql(output: GroupOutput, columnSql: (column: string) => string): string {
  if (output.op === 'key') return columnSql(output.column)
  return countsEveryRow(output) ? 'COUNT(*)' : AGGREGATES[output.op](columnSql(output.column))
}

function compileGroup(rt: TableRuntime, plan: GroupFindPlan): CompiledFind {
  const columnSql = columnSqlOf(rt, ALIAS)
  const alias = (output: number) => `g${output}`
  const selects = plan.outputs.map((o, i) => `${aggregateSql(o, columnSql)} AS ${alias(i)}`)
  const groupBy = plan.outputs.filter((o) => o.op === 'key').map((o) => columnSql(o.column))
  const order = plan.order.map((o) => `${alias(o.output)} ${sqlDirection(o.direction)}`)
  const search = searchJoin(rt, plan.search)
  const where = compileFilterSql(plan.filter, columnSql)
  // No WHERE at all without a filter: `SELECT COUNT(*) FROM t` alone is what SQLite answers with its count opcode
  // (b-tree cells counted page by page); `WHERE 1` makes it a scan of the smallest index (decision 1479).
  const sql =
    `SELECT ${selects.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS}${search.sql ? ` ${search.sql}` : ''}${plan.filter.type === 'all' ? '' : ` WHERE ${where.sql}`}` +
    (groupBy.length ? ` GROUP BY ${groupBy.join(', ')}` : '') +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
    ' LIMIT ? OFFSET ?'
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {}
    plan.outputs.forEach((o, i) => {
      const value = raw[alias(i)]
      if (o.op === 'unique') row[o.key] = (JSON.parse(value as string) as unknown[]).filter((v) => v !== null).map((v) => decodeValue(o.kind, v))
      else if (o.op === 'key' || o.op === 'max' || o.op === 'min') row[o.key] = decodeValue(o.kind, value)
      else row[o.key] = value ?? null
    })
    return row
  }
  return { sql, params: [...search.params, ...where.params, plan.limit + 1, plan.offset], decode }
}

/**
 * Compiles a validated find (`planFind`) to SQLite: the filter as a WHERE clause, search as a join on the
 * FTS5 table (bm25), sorting with `id` as tie-breaker, groups with `GROUP BY` and aggregates
 * (docs/decisions/0405-filter-semantics.md), and `LIMIT limit + 1` so the caller learns `hasMore`.
 *
 * @example
 * ```ts
 * const find = compileFind(rt, planFind(rt, { filter: { status: 'open' }, orderBy: 'createdAt', orderDirection: 'desc' }))
 * const rows = db.prepare(find.sql).all(...find.params).map(find.decode)
 * ```
 */
export function compileFind(rt: TableRuntime, plan: FindPlan): CompiledFind {
  return plan.type === 'group' ? compileGroup(rt, plan) : compileRows(rt, plan)
}

/**
 * Finds rows (filter, search, select, order, limit/offset) or groups (`group`): the query is validated into a
 * plan, compiled to SQL run under a query budget for `$regex` (50 ms of matching; decision 0701), and its result
 * decoded. A search with a query `vector` fuses the full-text ranking with the nearest row vectors (decision 0860).
 *
 * @example
 * ```ts
 * const { rows, hasMore } = findRows(context, 'bot_1', 'ordersTable', { filter: { total: { $gte: 10 } }, limit: 50 })
 * ```
 */
export function findRows(context: TablesContext, botId: string, ref: string, query: FindQuery): FindResult {
  const rt = runtimeOf(loadTable(context, botId, ref))
  const plan = planFind(rt, query)
  const page = context.withRegexBudget(queryRegexBudget(), () =>
    (plan.type === 'rows' && plan.search && query.vector && hybridPage(context, rt, plan, query.vector)) || lexicalPage(context, rt, plan),
  )
  const result: FindResult = { ...page, offset: plan.offset, limit: plan.limit }
  if (plan.warnings.length > 0) result.warnings = plan.warnings
  return result
}

function run(context: TablesContext, compiled: CompiledFind): Row[] {
  return (context.prepare(compiled.sql).all(...compiled.params) as Array<Record<string, unknown>>).map(compiled.decode) as Row[]
}

function lexicalPage(context: TablesContext, rt: TableRuntime, plan: FindPlan): { rows: Row[]; hasMore: boolean } {
  const rows = run(context, compileFind(rt, plan))
  return { rows: rows.slice(0, plan.limit), hasMore: rows.length > plan.limit }
}

/**
 * A search ranked by words and vectors (decision 0860): the full-text matches and the nearest row vectors, both
 * under the filter, fused; `undefined` when no row the filter keeps has a vector of the query's embedder (the
 * search is then lexical, as without an embedder).
 */
function hybridPage(context: TablesContext, rt: TableRuntime, plan: RowsFindPlan, vector: QueryVector): { rows: Row[]; hasMore: boolean } | undefined {
  const nearest = nearestRowIds(context, rt, vector, compileFilterSql(plan.filter, columnSqlOf(rt, ALIAS)))
  if (nearest.length === 0) return undefined
  // Only the ids of the full-text matches are read: an empty projection.
  const lexicalPlan: RowsFindPlan = { ...plan, order: { by: 'similarity', direction: 'desc' }, limit: lexicalDepth(plan), offset: 0, projection: { columns: [], paths: [] } }
  const lexical = run(context, compileRows(rt, lexicalPlan)).map((row) => row.id)
  const fetch = planHybridFetch(plan, rankTableSearch(lexical, nearest))
  return arrangeHybridRows(fetch, run(context, compileRows(rt, fetch.plan, fetch)), plan.limit)
}
