import type { Column } from '../../api/tables/index.js'
import { reservedColumnNames, tablesLimits } from '../../api/tables/index.js'
import { describeValue } from '../../issues/index.js'
import { encodeValue } from './tables-columns.js'
import type { ColumnKind } from '../tables/column-kinds.js'
import { normalizeDateTime } from '../tables/date-time.js'
import { TablesStoreError } from '../tables/errors.js'
import type { SafeRegex } from '../tables/safe-regex.js'

/** A column with what validating and encoding its values needs, compiled once per request. */
export interface ColumnRuntime {
  name: string
  physical: string
  kind: ColumnKind
  column: Column
  required: boolean
  nullable: boolean
  pattern?: SafeRegex
}

/** One refused value: which row (index in the request), which column, what went wrong. */
export interface RowProblem {
  row: number
  column: string
  message: string
}

const SYSTEM_KEYS: ReadonlySet<string> = new Set([...reservedColumnNames, 'similarity'])

function typeProblem(expected: string, value: unknown): string {
  return `expected ${expected}, received ${describeValue(value)}`
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function nestedProblem(spec: { type: string } | undefined, value: unknown): string | null {
  if (spec === undefined || value === null) return null
  const actual = jsonTypeOf(value)
  if (spec.type === actual) return null
  if (spec.type === 'number' && actual === 'number') return null
  return typeProblem(spec.type, value)
}

/**
 * Checks one non-null value against its column: JSON type, `date-time` format, `pattern`, `enum`,
 * array `items` type and object `properties` types (one level). Returns the problem, or `null`.
 *
 * @example
 * ```ts
 * valueProblem(runtime, 'abc') // 'expected number, received "abc"' for a number column
 * ```
 */
export function valueProblem(rt: ColumnRuntime, value: unknown): string | null {
  const column = rt.column
  switch (rt.kind) {
    case 'string':
    case 'date':
      if (typeof value !== 'string') return typeProblem(rt.kind === 'date' ? 'an ISO 8601 date-time string' : 'string', value)
      if (rt.kind === 'date' && normalizeDateTime(value) === undefined) return typeProblem('an ISO 8601 date-time string', value)
      if (rt.pattern && !rt.pattern.test(value)) return typeProblem(`a string matching /${column.pattern}/`, value)
      if (column.enum && !column.enum.includes(value)) return typeProblem(column.enum.map((v) => JSON.stringify(v)).join(' | '), value)
      return null
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : typeProblem('number', value)
    case 'boolean':
      return typeof value === 'boolean' ? null : typeProblem('boolean', value)
    case 'array': {
      if (!Array.isArray(value)) return typeProblem('array', value)
      for (let i = 0; i < value.length; i++) {
        const problem = nestedProblem(column.items, value[i])
        if (problem) return `item ${i}: ${problem}`
      }
      return null
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeProblem('object', value)
      for (const [key, spec] of Object.entries(column.properties ?? {})) {
        const problem = nestedProblem(spec, (value as Record<string, unknown>)[key])
        if (problem) return `property "${key}": ${problem}`
      }
      return null
    }
  }
}

/** The outcome of preparing rows for a write: encoded values per row, problems, and warnings. */
export interface PreparedRows {
  /** Per row, the encoded values of the columns it sets, keyed by column name. */
  rows: Array<Map<string, string | number | null>>
  problems: RowProblem[]
  warnings: string[]
}

/**
 * Validates and encodes rows for a write. `mode` `insert` fills every column (missing = null) and
 * checks `required`; `patch` only touches the columns a row names. System keys are skipped; keys that
 * are not columns are ignored with one warning per name. The JSON size of each resulting row is
 * checked against 4 KB × factor (`sizeOf` gives the current stored size for patches).
 *
 * @example
 * ```ts
 * const prepared = prepareRows(columns, [{ name: 'Ada' }], 'insert', 1)
 * ```
 */
export function prepareRows(
  columns: ReadonlyArray<ColumnRuntime>,
  input: ReadonlyArray<Record<string, unknown>>,
  mode: 'insert' | 'patch',
  factor: number,
  merged?: (index: number, changes: Record<string, unknown>) => Record<string, unknown>,
): PreparedRows {
  const byName = new Map(columns.map((c) => [c.name, c]))
  const ignored = new Set<string>()
  const problems: RowProblem[] = []
  const rows: PreparedRows['rows'] = []
  const maxBytes = tablesLimits.rowBytesPerFactor * factor
  input.forEach((row, index) => {
    const encoded = new Map<string, string | number | null>()
    const userData: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(row)) {
      if (SYSTEM_KEYS.has(key)) continue
      const rt = byName.get(key)
      if (!rt) {
        ignored.add(key)
        continue
      }
      if (value === undefined) continue
      if (value === null) {
        if (!rt.nullable) problems.push({ row: index, column: key, message: typeProblem(rt.kind === 'date' ? 'date-time' : rt.column.type, null) })
        else if (rt.required) problems.push({ row: index, column: key, message: 'required, received null' })
        encoded.set(key, null)
        continue
      }
      const problem = valueProblem(rt, value)
      if (problem) problems.push({ row: index, column: key, message: problem })
      else {
        encoded.set(key, encodeValue(rt.kind, value))
        userData[key] = value
      }
    }
    if (mode === 'insert') {
      for (const rt of columns) {
        if (encoded.has(rt.name)) continue
        if (rt.required) problems.push({ row: index, column: rt.name, message: 'required, received missing' })
        else if (!rt.nullable) problems.push({ row: index, column: rt.name, message: 'the column is not nullable, received missing' })
        encoded.set(rt.name, null)
      }
    }
    const full = merged ? merged(index, userData) : userData
    const bytes = Buffer.byteLength(JSON.stringify(full))
    if (bytes > maxBytes) {
      problems.push({ row: index, column: '(row)', message: `row is ${bytes} bytes, the limit is ${maxBytes} (4 KB × factor ${factor})` })
    }
    rows.push(encoded)
  })
  const warnings = [...ignored].map((name) => `Column "${name}" is not in the table schema; its values were ignored`)
  return { rows, problems, warnings }
}

/**
 * The `InvalidDataFormat` error listing refused values (`rows.3.age: expected number, received "x"`),
 * at most 20 lines, all of them in `metadata.issues`.
 *
 * @example
 * ```ts
 * if (prepared.problems.length) throw rowProblemsError(prepared.problems)
 * ```
 */
export function rowProblemsError(problems: ReadonlyArray<RowProblem>): TablesStoreError {
  const lines = problems.slice(0, 20).map((p) => `rows.${p.row}.${p.column}: ${p.message}`)
  if (problems.length > 20) lines.push(`… and ${problems.length - 20} more`)
  const lead = `${problems.length} value${problems.length === 1 ? '' : 's'} do${problems.length === 1 ? 'es' : ''} not fit the table schema; no row was written`
  const message = lines.length === 1 ? `${lead}: ${lines[0]}` : `${lead}:\n${lines.map((l) => `  - ${l}`).join('\n')}`
  return new TablesStoreError('InvalidDataFormat', 'INVALID_ROW', message, {
    issues: problems.map((p) => ({ path: `rows.${p.row}.${p.column}`, row: p.row, column: p.column, message: p.message })),
  })
}
