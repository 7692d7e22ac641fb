import type { GroupOperation } from 'botshelf/api'
import { groupOperations, groupOutputKey, tablesLimits } from 'botshelf/api'
import { describeValue } from 'botshelf/api'
import { orderedKinds, scalarKinds } from '../column-kinds.js'
import { invalidQuery, MAX_QUERY_INTEGER } from '../errors.js'
import { parseFilter, queryColumns, resolveTarget, type ColumnKindLookup, type ColumnTarget, type FilterNode } from '../filter/index.js'
import type { TableColumns } from '../table-columns.js'
import type { FindQuery } from '../types.js'
import type { FindPlan, GroupFindPlan, GroupOutput, RowsFindPlan, RowsOrder, SortDirection } from './find-plan.js'
import { planProjection } from './projection.js'
import { searchWords } from './search-words.js'

const NUMERIC_OPS: ReadonlySet<GroupOperation> = new Set(['sum', 'avg'])
const ORDERED_OPS: ReadonlySet<GroupOperation> = new Set(['max', 'min'])

/** A column `orderBy` or `group` names; dot paths are for filters only. */
function namedColumn(kindOf: ColumnKindLookup, name: string, path: string): ColumnTarget | undefined {
  const target = resolveTarget(kindOf, name, path)
  if (target?.type === 'path') throw invalidQuery(`${path}: dot paths work in filter only, not here`)
  return target
}

function planSearch(table: TableColumns, search: string | undefined, warnings: string[]): string[] | undefined {
  if (search === undefined || search.trim() === '') return undefined
  if (table.searchable.length === 0) throw invalidQuery('search: the table has no searchable column; mark columns with "x-zui": { "searchable": true }')
  const words = searchWords(search)
  if (words.length > 0) return words
  warnings.push('search: no words to search for; the search was ignored')
  return undefined
}

function planFilter(kindOf: ColumnKindLookup, filter: FindQuery['filter']): FilterNode {
  return filter ? parseFilter(filter, kindOf) : { type: 'all' }
}

const directionOf = (query: FindQuery): SortDirection => (query.orderDirection === 'desc' ? 'desc' : 'asc')

function planRows(table: TableColumns, kindOf: ColumnKindLookup, query: FindQuery): RowsFindPlan {
  const warnings: string[] = []
  const search = planSearch(table, query.search, warnings)
  const filter = planFilter(kindOf, query.filter)
  let order: RowsOrder
  if (query.orderBy === undefined && search) order = { by: 'similarity', direction: 'desc' }
  else if (query.orderBy === 'similarity') {
    if (!search) throw invalidQuery('orderBy: "similarity" needs a search')
    order = { by: 'similarity', direction: directionOf(query) }
  } else {
    const name = query.orderBy ?? 'id'
    const column = namedColumn(kindOf, name, 'orderBy')
    if (!column) throw invalidQuery(`orderBy: unknown column "${name}"`)
    if (!scalarKinds.has(column.kind)) throw invalidQuery(`orderBy: cannot order by the ${column.kind} column "${name}"`)
    order = { by: 'column', column: name, kind: column.kind, direction: directionOf(query) }
  }
  const plan: RowsFindPlan = { type: 'rows', filter, order, limit: query.limit ?? tablesLimits.findLimitDefault, offset: checkedOffset(query.offset), warnings }
  if (search) plan.search = search
  if (query.select) plan.projection = planProjection(table, query.select)
  return plan
}

function groupOutputs(kindOf: ColumnKindLookup, group: NonNullable<FindQuery['group']>): GroupOutput[] {
  const outputs: GroupOutput[] = []
  for (const [name, spec] of Object.entries(group)) {
    const column = namedColumn(kindOf, name, `group.${name}`)
    if (!column) throw invalidQuery(`group.${name}: unknown column "${name}"`)
    const ops = Array.isArray(spec) ? spec : [spec]
    if (ops.length === 0) throw invalidQuery(`group.${name}: expected at least one operation`)
    for (const op of ops) {
      if (!(groupOperations as readonly string[]).includes(op)) {
        throw invalidQuery(`group.${name}: unknown operation ${describeValue(op)}; expected one of ${groupOperations.join(', ')}`)
      }
      if (NUMERIC_OPS.has(op) && column.kind !== 'number') throw invalidQuery(`group.${name}: "${op}" applies to number columns, not ${column.kind}`)
      if (ORDERED_OPS.has(op) && !orderedKinds.has(column.kind)) throw invalidQuery(`group.${name}: "${op}" applies to number, string and date columns, not ${column.kind}`)
      if ((op === 'key' || op === 'unique') && !scalarKinds.has(column.kind)) throw invalidQuery(`group.${name}: "${op}" applies to scalar columns, not ${column.kind}`)
      outputs.push({ key: groupOutputKey(name, op), column: name, op, kind: column.kind })
    }
  }
  if (outputs.length === 0) throw invalidQuery('group: expected at least one column')
  return outputs
}

function planGroup(table: TableColumns, kindOf: ColumnKindLookup, query: FindQuery): GroupFindPlan {
  const warnings: string[] = []
  if (query.select) warnings.push('select: ignored with group; groups carry only their output keys')
  const outputs = groupOutputs(kindOf, query.group!)
  const keys = outputs.flatMap((o, i) => (o.op === 'key' ? [i] : []))
  let order: GroupFindPlan['order']
  const orderBy = query.orderBy
  if (orderBy === undefined || orderBy === 'id') order = keys.map((output) => ({ output, direction: 'asc' }))
  else {
    let target = outputs.findIndex((o) => o.key === orderBy)
    if (target < 0) target = keys.find((k) => outputs[k]!.key === `${orderBy}Key`) ?? -1
    if (target < 0) throw invalidQuery(`orderBy: "${orderBy}" is neither a key column nor an output key of the group`)
    order = [{ output: target, direction: directionOf(query) }, ...keys.filter((k) => k !== target).map((output) => ({ output, direction: 'asc' as const }))]
  }
  const search = planSearch(table, query.search, warnings)
  const plan: GroupFindPlan = { type: 'group', filter: planFilter(kindOf, query.filter), outputs, order, limit: query.limit ?? tablesLimits.findLimitDefault, offset: checkedOffset(query.offset), warnings }
  if (search) plan.search = search
  return plan
}

/**
 * Validates a `findTableRows` query against a table (docs/decisions/0405-filter-semantics.md) into a plan with no
 * SQL in it: the filter as a `FilterNode`, the search words, the sort (`similarity` first by default when
 * searching, `id` otherwise), the projection, or the group outputs and their order. Errors are `InvalidQuery`
 * naming the part of the query (`orderBy`, `group.total`, `select.1`, `search`, `filter...`).
 *
 * @example
 * ```ts
 * const plan = planFind(tableColumns(record.schema, record.physicalMap), { filter: { status: 'open' }, orderBy: 'createdAt', orderDirection: 'desc' })
 * // { type: 'rows', order: { by: 'column', column: 'createdAt', kind: 'date', direction: 'desc' }, limit: 100, offset: 0, ... }
 * ```
 */
export function planFind(table: TableColumns, query: FindQuery): FindPlan {
  const kindOf = queryColumns(table)
  return query.group ? planGroup(table, kindOf, query) : planRows(table, kindOf, query)
}

/** The offset of a find, at most {@link MAX_QUERY_INTEGER} on every engine. */
function checkedOffset(offset: number | undefined): number {
  if (offset !== undefined && offset > MAX_QUERY_INTEGER) throw invalidQuery(`offset: expected at most ${MAX_QUERY_INTEGER}, received ${offset}`)
  return offset ?? 0
}
