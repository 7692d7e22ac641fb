import type { GroupOperation, Row } from '../../api/tables/index.js'
import { groupOperations, groupOutputKey, tablesLimits } from '../../api/tables/index.js'
import { describeValue } from '../../issues/index.js'
import { decodeValue, quoteIdent } from './tables-columns.js'
import { orderedKinds, scalarKinds, type ColumnKind } from '../tables/column-kinds.js'
import { invalidQuery } from '../tables/errors.js'
import { queryColumns, resolveTarget } from '../tables/filter/index.js'
import { columnSqlOf, filterWhere, systemColumns, type TableRuntime } from './tables-runtime.js'

import type { FindQuery } from '../tables/types.js'

export type { FindQuery, FindResult } from '../tables/types.js'

/** A compiled `findTableRows`: SQL (asking for limit + 1 rows to learn `hasMore`), params, and a decoder. */
export interface CompiledFind {
  sql: string
  params: unknown[]
  limit: number
  offset: number
  warnings: string[]
  decode: (raw: Record<string, unknown>) => Record<string, unknown>
}

const ALIAS = 't'

/**
 * Words of a search string, for an FTS5 OR query (`"invoice" OR "march"`), quoted so no FTS syntax leaks in.
 *
 * @example
 * ```ts
 * ftsQuery('March invoices!') // '"March" OR "invoices"'
 * ```
 */
export function ftsQuery(search: string): string | undefined {
  const words = search.match(/[\p{L}\p{N}_]+/gu)
  if (!words || words.length === 0) return undefined
  return [...new Set(words)].map((w) => `"${w}"`).join(' OR ')
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

function sqlOf(rt: TableRuntime, name: string, path: string): { sql: string; kind: ColumnKind } | undefined {
  const target = resolveTarget(queryColumns(rt), name, path)
  if (target?.type === 'path') throw invalidQuery(`${path}: dot paths work in filter only, not here`)
  return target && { sql: columnSqlOf(rt, ALIAS)(target.column), kind: target.kind }
}

interface SearchPart {
  join: string
  params: unknown[]
}

function searchJoin(rt: TableRuntime, search: string | undefined, warnings: string[]): SearchPart | undefined {
  if (search === undefined || search.trim() === '') return undefined
  if (!rt.fts) throw invalidQuery('search: the table has no searchable column; mark columns with "x-zui": { "searchable": true }')
  const match = ftsQuery(search)
  if (!match) {
    warnings.push('search: no words to search for; the search was ignored')
    return undefined
  }
  const fts = quoteIdent(rt.fts)
  return {
    join: `JOIN (SELECT rowid AS sid, bm25(${fts}) AS score FROM ${fts} WHERE ${fts} MATCH ?) s ON s.sid = ${ALIAS}.id`,
    params: [match],
  }
}

function whereOf(rt: TableRuntime, filter: Record<string, unknown> | undefined): { sql: string; params: unknown[] } {
  if (!filter) return { sql: '1', params: [] }
  return filterWhere(rt, filter, ALIAS)
}

function pageOf(query: FindQuery): { limit: number; offset: number } {
  return { limit: query.limit ?? tablesLimits.findLimitDefault, offset: query.offset ?? 0 }
}

/**
 * Builds the SQL of a row query (no `group`): filter, search (FTS5, ordered by similarity unless
 * `orderBy` is given), order with `id` as tie-breaker, limit + 1 and offset; `select` projects after decoding.
 *
 * @example
 * ```ts
 * const find = compileRowFind(rt, { filter: { status: 'open' }, orderBy: 'createdAt', orderDirection: 'desc' })
 * ```
 */
export function compileRowFind(rt: TableRuntime, query: FindQuery): CompiledFind {
  const warnings: string[] = []
  const { limit, offset } = pageOf(query)
  const search = searchJoin(rt, query.search, warnings)
  const where = whereOf(rt, query.filter)
  const direction = query.orderDirection === 'desc' ? 'DESC' : 'ASC'
  let order: string
  if (query.orderBy === undefined && search) order = 's.score ASC'
  else if (query.orderBy === 'similarity') {
    if (!search) throw invalidQuery('orderBy: "similarity" needs a search')
    order = `s.score ${direction === 'ASC' ? 'DESC' : 'ASC'}`
  } else {
    const name = query.orderBy ?? 'id'
    const column = sqlOf(rt, name, 'orderBy')
    if (!column) throw invalidQuery(`orderBy: unknown column "${name}"`)
    if (!scalarKinds.has(column.kind)) throw invalidQuery(`orderBy: cannot order by the ${column.kind} column "${name}"`)
    order = `${column.sql} ${direction}`
  }
  if (!order.startsWith(`${ALIAS}.id `)) order += `, ${ALIAS}.id ASC`
  const projection = projectionOf(rt, query.select)
  const columnsSql = ['t.id', 't.created_at', 't.updated_at', ...projection.columns.map((c) => `${ALIAS}.${quoteIdent(c.physical)}`)]
  if (search) columnsSql.push('s.score AS __score')
  const sql = `SELECT ${columnsSql.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS} ${search?.join ?? ''} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`
  const params = [...(search?.params ?? []), ...where.params, limit + 1, offset]
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = { id: raw['id'], createdAt: raw['created_at'], updatedAt: raw['updated_at'], computed: {} }
    for (const c of projection.columns) row[c.name] = decodeValue(c.kind, raw[c.physical])
    if (search) row['similarity'] = similarityFromBm25(raw['__score'] as number)
    return projection.paths ? project(row, projection.paths) : row
  }
  return { sql, params, limit, offset, warnings, decode }
}

function projectionOf(rt: TableRuntime, select: string[] | undefined): { columns: TableRuntime['columns']; paths?: string[][] } {
  if (!select) return { columns: rt.columns }
  const needed = new Set<string>()
  const paths: string[][] = []
  select.forEach((entry, i) => {
    const path = entry.split('.')
    const head = path[0]!
    if (path.some((p) => p === '')) throw invalidQuery(`select.${i}: invalid path ${JSON.stringify(entry)}`)
    if (!rt.byName.has(head) && !(head in systemColumns) && head !== 'computed' && head !== 'similarity') {
      throw invalidQuery(`select.${i}: unknown column "${head}"`)
    }
    if (rt.byName.has(head)) needed.add(head)
    paths.push(path)
  })
  return { columns: rt.columns.filter((c) => needed.has(c.name)), paths }
}

const ALWAYS_KEPT = ['id', 'createdAt', 'updatedAt', 'computed', 'stale', 'similarity']

function project(row: Record<string, unknown>, paths: string[][]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of ALWAYS_KEPT) if (key in row) out[key] = row[key]
  for (const path of paths) {
    let source: unknown = row
    for (const part of path) source = source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[part] : undefined
    if (source === undefined) continue
    let target = out
    path.slice(0, -1).forEach((part) => {
      const next = target[part]
      if (next === null || typeof next !== 'object') target[part] = {}
      target = target[part] as Record<string, unknown>
    })
    target[path[path.length - 1]!] = source
  }
  return out
}

const NUMERIC_OPS: ReadonlySet<GroupOperation> = new Set(['sum', 'avg'])
const ORDERED_OPS: ReadonlySet<GroupOperation> = new Set(['max', 'min'])
const ORDERED_KINDS = orderedKinds

interface GroupOutput {
  key: string
  alias: string
  op: GroupOperation
  kind: ColumnKind
}

/**
 * Builds the SQL of a `group` query: one output row per distinct combination of the `key` columns
 * (one row when there is none), with `count` (non-null values), `sum`, `avg`, `max`, `min` and `unique`
 * (distinct non-null values) under `<column><Op>` keys. Groups are ordered by their keys unless `orderBy`
 * names a key column or an output key.
 *
 * @example
 * ```ts
 * compileGroupFind(rt, { group: { status: 'key', total: ['sum', 'count'] } })
 * ```
 */
export function compileGroupFind(rt: TableRuntime, query: FindQuery): CompiledFind {
  const warnings: string[] = []
  const { limit, offset } = pageOf(query)
  const group = query.group!
  if (query.select) warnings.push('select: ignored with group; groups carry only their output keys')
  const outputs: GroupOutput[] = []
  const keyExprs: string[] = []
  const selects: string[] = []
  let n = 0
  for (const [name, spec] of Object.entries(group)) {
    const column = sqlOf(rt, name, `group.${name}`)
    if (!column) throw invalidQuery(`group.${name}: unknown column "${name}"`)
    const ops = Array.isArray(spec) ? spec : [spec]
    if (ops.length === 0) throw invalidQuery(`group.${name}: expected at least one operation`)
    for (const op of ops) {
      if (!(groupOperations as readonly string[]).includes(op)) {
        throw invalidQuery(`group.${name}: unknown operation ${describeValue(op)}; expected one of ${groupOperations.join(', ')}`)
      }
      if (NUMERIC_OPS.has(op) && column.kind !== 'number') throw invalidQuery(`group.${name}: "${op}" applies to number columns, not ${column.kind}`)
      if (ORDERED_OPS.has(op) && !ORDERED_KINDS.has(column.kind)) throw invalidQuery(`group.${name}: "${op}" applies to number, string and date columns, not ${column.kind}`)
      if ((op === 'key' || op === 'unique') && !scalarKinds.has(column.kind)) throw invalidQuery(`group.${name}: "${op}" applies to scalar columns, not ${column.kind}`)
      const alias = `g${n++}`
      outputs.push({ key: groupOutputKey(name, op), alias, op, kind: column.kind })
      switch (op) {
        case 'key':
          keyExprs.push(column.sql)
          selects.push(`${column.sql} AS ${alias}`)
          break
        case 'count':
          selects.push(`COUNT(${column.sql}) AS ${alias}`)
          break
        case 'sum':
          selects.push(`COALESCE(SUM(${column.sql}), 0) AS ${alias}`)
          break
        case 'avg':
          selects.push(`AVG(${column.sql}) AS ${alias}`)
          break
        case 'max':
          selects.push(`MAX(${column.sql}) AS ${alias}`)
          break
        case 'min':
          selects.push(`MIN(${column.sql}) AS ${alias}`)
          break
        case 'unique':
          selects.push(`json_group_array(DISTINCT ${column.sql}) AS ${alias}`)
          break
      }
    }
  }
  if (outputs.length === 0) throw invalidQuery('group: expected at least one column')
  const keys = outputs.filter((o) => o.op === 'key')
  const direction = query.orderDirection === 'desc' ? 'DESC' : 'ASC'
  let order: string[]
  const orderBy = query.orderBy
  if (orderBy === undefined || orderBy === 'id') order = keys.map((k) => `${k.alias} ASC`)
  else {
    const target = outputs.find((o) => o.key === orderBy) ?? keys.find((k) => k.key === `${orderBy}Key`)
    if (!target) throw invalidQuery(`orderBy: "${orderBy}" is neither a key column nor an output key of the group`)
    order = [`${target.alias} ${direction}`, ...keys.filter((k) => k !== target).map((k) => `${k.alias} ASC`)]
  }
  const search = searchJoin(rt, query.search, warnings)
  const where = whereOf(rt, query.filter)
  const sql =
    `SELECT ${selects.join(', ')} FROM ${quoteIdent(rt.physical)} ${ALIAS} ${search?.join ?? ''} WHERE ${where.sql}` +
    (keyExprs.length ? ` GROUP BY ${keyExprs.join(', ')}` : '') +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '') +
    ' LIMIT ? OFFSET ?'
  const params = [...(search?.params ?? []), ...where.params, limit + 1, offset]
  const decode = (raw: Record<string, unknown>) => {
    const row: Record<string, unknown> = {}
    for (const o of outputs) {
      const value = raw[o.alias]
      if (o.op === 'unique') {
        const items = JSON.parse(value as string) as unknown[]
        row[o.key] = items.filter((v) => v !== null).map((v) => decodeValue(o.kind, v))
      } else if (o.op === 'key' || o.op === 'max' || o.op === 'min') row[o.key] = decodeValue(o.kind, value)
      else row[o.key] = value ?? null
    }
    return row
  }
  return { sql, params, limit, offset, warnings, decode }
}
