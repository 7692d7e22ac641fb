import type { ColumnType, TableSchema } from 'botshelf/api'
import { ServiceError } from '../../http/service-error.js'

/** A column's JSON schema without `x-zui`: what a computed value must fit. */
export interface ColumnValueSchema {
  type: ColumnType
  format?: 'date-time'
  enum?: string[]
  [keyword: string]: unknown
}

/** One computed column of a table, read from its `x-zui.computed`. */
export interface ComputedColumn {
  name: string
  /** The column's JSON schema (type, format, enum, properties...) without `x-zui`: what a value must fit. */
  schema: ColumnValueSchema
  action: 'ai' | 'code' | 'workflow'
  /** The columns the computation reads (`{{name}}` in a prompt, `row.name` in code). */
  dependencies: string[]
  prompt?: string
  code?: string
  model?: string
  workflowId?: string
  /** `false`: not computed (cells are `disabled`). */
  enabled: boolean
}

/**
 * The computed columns of a schema in computation order: a column comes after the computed columns it depends on.
 * Call it on schemas `checkComputedColumns` accepted (a cycle is not ordered).
 *
 * @example
 * ```ts
 * computedColumnsOf(table.schema).map((c) => c.name) // ['summary', 'sentiment']
 * ```
 */
export function computedColumnsOf(schema: TableSchema): ComputedColumn[] {
  const columns: ComputedColumn[] = []
  for (const [name, column] of Object.entries(schema.properties)) {
    const computed = column['x-zui'].computed
    if (!computed) continue
    const { 'x-zui': _zui, ...valueSchema } = column
    columns.push({
      name,
      schema: valueSchema as ColumnValueSchema,
      action: computed.action,
      dependencies: [...new Set(computed.dependencies ?? [])],
      ...(computed.prompt !== undefined ? { prompt: computed.prompt } : {}),
      ...(computed.code !== undefined ? { code: computed.code } : {}),
      ...(computed.model !== undefined ? { model: computed.model } : {}),
      ...(computed.workflowId !== undefined ? { workflowId: computed.workflowId } : {}),
      enabled: computed.enabled !== false,
    })
  }
  return inDependencyOrder(columns)
}

/** Orders computed columns so that each comes after the computed columns it reads (stable otherwise). */
function inDependencyOrder(columns: ComputedColumn[]): ComputedColumn[] {
  const byName = new Map(columns.map((column) => [column.name, column]))
  const ordered: ComputedColumn[] = []
  const placed = new Set<string>()
  const visiting = new Set<string>()
  const visit = (column: ComputedColumn): void => {
    if (placed.has(column.name) || visiting.has(column.name)) return
    visiting.add(column.name)
    for (const dependency of column.dependencies) {
      const computed = byName.get(dependency)
      if (computed) visit(computed)
    }
    visiting.delete(column.name)
    placed.add(column.name)
    ordered.push(column)
  }
  for (const column of columns) visit(column)
  return ordered
}

/**
 * Refuses a schema whose computed columns cannot run: a dependency that is not a column, a column that depends on
 * itself, a cycle between computed columns, an `ai` column without a prompt, a `code` column without code, a
 * `workflow` column without a workflow id. The error names the column, what was expected and what was received.
 *
 * @example
 * ```ts
 * checkComputedColumns(normalizedSchema) // throws InvalidPayload 'schema.properties.b.x-zui.computed.dependencies: ... a cycle b → a → b'
 * ```
 */
export function checkComputedColumns(schema: TableSchema): void {
  const invalid = (column: string, field: string, message: string) =>
    new ServiceError('InvalidPayload', `schema.properties.${column}.x-zui.computed${field ? `.${field}` : ''}: ${message}`)
  const computed = new Map<string, string[]>()
  for (const [name, column] of Object.entries(schema.properties)) {
    const definition = column['x-zui'].computed
    if (!definition) continue
    for (const dependency of definition.dependencies ?? []) {
      if (dependency === name) throw invalid(name, 'dependencies', `expected other columns, received the column itself ("${name}")`)
      if (!Object.hasOwn(schema.properties, dependency)) {
        throw invalid(name, 'dependencies', `expected names of columns of the table, received "${dependency}" (no such column)`)
      }
    }
    if (definition.action === 'ai' && !definition.prompt?.trim()) throw invalid(name, 'prompt', 'expected a prompt for an "ai" column, received nothing')
    if (definition.action === 'code' && !definition.code?.trim()) throw invalid(name, 'code', 'expected the body of an async function for a "code" column, received nothing')
    if (definition.action === 'workflow' && !definition.workflowId?.trim()) throw invalid(name, 'workflowId', 'expected the id of a workflow for a "workflow" column, received nothing')
    computed.set(name, definition.dependencies ?? [])
  }
  const cycle = findCycle(computed)
  if (cycle) throw invalid(cycle[0]!, 'dependencies', `expected no cycle between computed columns, received ${cycle.join(' → ')}`)
}

/** A cycle among computed columns (`['a', 'b', 'a']`), or undefined. */
function findCycle(dependencies: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>()
  const path: string[] = []
  const walk = (name: string): string[] | undefined => {
    const at = path.indexOf(name)
    if (at >= 0) return [...path.slice(at), name]
    if (done.has(name) || !dependencies.has(name)) return undefined
    path.push(name)
    for (const next of dependencies.get(name)!) {
      const cycle = walk(next)
      if (cycle) return cycle
    }
    path.pop()
    done.add(name)
    return undefined
  }
  for (const name of dependencies.keys()) {
    const cycle = walk(name)
    if (cycle) return cycle
  }
  return undefined
}

/**
 * The computed columns to recompute after some columns changed: those that read one of them, directly or through
 * another computed column, in computation order.
 *
 * @example
 * ```ts
 * dependentColumns(computedColumnsOf(schema), ['review']).map((c) => c.name) // ['sentiment', 'reply']
 * ```
 */
export function dependentColumns(columns: readonly ComputedColumn[], changed: Iterable<string>): ComputedColumn[] {
  const touched = new Set(changed)
  const result: ComputedColumn[] = []
  // Columns are in computation order: one pass carries the change down the chains.
  for (const column of columns) {
    if (column.dependencies.some((dependency) => touched.has(dependency))) {
      result.push(column)
      touched.add(column.name)
    }
  }
  return result
}

/**
 * What a computed column's definition is, for telling whether `updateTable` changed it (its value schema included:
 * a type change recomputes).
 *
 * @example
 * ```ts
 * definitionKey(before) !== definitionKey(after) // the column is stale
 * ```
 */
export function definitionKey(column: ComputedColumn): string {
  const { name: _name, enabled: _enabled, ...definition } = column
  return canonicalJson(definition)
}

/** JSON with object keys sorted at every depth, so equal definitions give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}
