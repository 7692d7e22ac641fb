import { reservedColumnNames, tablesLimits } from 'botshelf/api'
import { describeValue } from 'botshelf/api'
import { normalizeDateTime } from './date-time.js'
import { TablesStoreError } from './errors.js'
import { describeJsonBoundsProblem, jsonBoundsProblem } from './json-bounds.js'
import { RegexBudgetExceeded, writeRegexBudget, type RegexBudget } from './regex-budget.js'
import type { TableColumn } from './table-columns.js'

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

/**
 * A value past the input bounds (docs/decisions/0701-input-bounds.md): nested too deep for anything recursive to
 * meet, or holding a `__proto__` key no JavaScript client could read back.
 */
function boundsProblem(value: unknown): string | null {
  const found = jsonBoundsProblem(value)
  return found ? describeJsonBoundsProblem(found) : null
}

/** The problem of a string that its column's `pattern` does not match, or that would cost too much to check. */
function patternProblem(target: TableColumn, value: string, budget: RegexBudget): string | null {
  try {
    return budget.test(target.pattern!, value, target.name) ? null : typeProblem(`a string matching /${target.column.pattern}/`, value)
  } catch (error) {
    if (!(error instanceof RegexBudgetExceeded)) throw error
    return `checking the column pattern needs more work than allowed: ${error.reason}; write fewer or shorter values per call, or use a simpler pattern`
  }
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
 * array `items` type and object `properties` types (one level), and for objects and arrays the input bounds: at
 * most 64 levels of nesting (the value itself counting as one) and no key `__proto__`. Returns the problem, or `null`.
 * `budget` bounds the work of `pattern` checks across the values of one request (default: a budget for this
 * value alone; docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * valueProblem(ageColumn, 'abc') // 'expected number, received "abc"'
 * ```
 */
export function valueProblem(target: TableColumn, value: unknown, budget: RegexBudget = writeRegexBudget()): string | null {
  const column = target.column
  switch (target.kind) {
    case 'string':
    case 'date':
      if (typeof value !== 'string') return typeProblem(target.kind === 'date' ? 'an ISO 8601 date-time string' : 'string', value)
      if (target.kind === 'date' && normalizeDateTime(value) === undefined) return typeProblem('an ISO 8601 date-time string', value)
      if (target.pattern) {
        const problem = patternProblem(target, value, budget)
        if (problem) return problem
      }
      if (column.enum && !column.enum.includes(value)) return typeProblem(column.enum.map((v) => JSON.stringify(v)).join(' | '), value)
      return null
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return typeProblem('number', value)
      const { minimum, maximum } = column as { minimum?: unknown; maximum?: unknown }
      if (typeof minimum === 'number' && value < minimum) return typeProblem(`a number ≥ ${minimum}`, value)
      if (typeof maximum === 'number' && value > maximum) return typeProblem(`a number ≤ ${maximum}`, value)
      return null
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : typeProblem('boolean', value)
    case 'array': {
      if (!Array.isArray(value)) return typeProblem('array', value)
      const outOfBounds = boundsProblem(value)
      if (outOfBounds) return outOfBounds
      for (let i = 0; i < value.length; i++) {
        const problem = nestedProblem(column.items, value[i])
        if (problem) return `item ${i}: ${problem}`
      }
      return null
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeProblem('object', value)
      const outOfBounds = boundsProblem(value)
      if (outOfBounds) return outOfBounds
      for (const [key, spec] of Object.entries(column.properties ?? {})) {
        const problem = nestedProblem(spec, Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined)
        if (problem) return `property "${key}": ${problem}`
      }
      return null
    }
  }
}

/** Rows checked for a write: the values each row sets, the problems found, and warnings. */
export interface ValidatedRows {
  /** Per row, the values of the columns it sets, keyed by column name (`null` clears; dates normalized to UTC). */
  rows: Array<Map<string, unknown>>
  problems: RowProblem[]
  warnings: string[]
}

/**
 * Checks rows for a write against the table's columns (decision 0403). `mode` `insert` fills every column
 * (missing = null) and checks `required`; `patch` only touches the columns a row names. System keys are
 * skipped; keys that are not columns are ignored with one warning per name. The JSON size of each resulting
 * row is checked against 4 KB × factor (`merged` gives the whole row a patch leads to). Column patterns are
 * checked under `budget` (default one for this call: 50 ms plus 100 ns per character checked), a value that would
 * overrun it being a problem like any other. Problems are numbered by the row's index in `input`.
 *
 * @example
 * ```ts
 * const { rows, problems, warnings } = validateRows(columns, [{ name: 'Ada' }], 'insert', 1)
 * ```
 */
export function validateRows(
  columns: ReadonlyArray<TableColumn>,
  input: ReadonlyArray<Record<string, unknown>>,
  mode: 'insert' | 'patch',
  factor: number,
  merged?: (index: number, changes: Record<string, unknown>) => Record<string, unknown>,
  budget: RegexBudget = writeRegexBudget(),
): ValidatedRows {
  const byName = new Map(columns.map((c) => [c.name, c]))
  const ignored = new Set<string>()
  const problems: RowProblem[] = []
  const rows: ValidatedRows['rows'] = []
  const maxBytes = tablesLimits.rowBytesPerFactor * factor
  input.forEach((row, index) => {
    const values = new Map<string, unknown>()
    const userData: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(row)) {
      if (SYSTEM_KEYS.has(key)) continue
      const column = byName.get(key)
      if (!column) {
        ignored.add(key)
        continue
      }
      if (value === undefined) continue
      if (value === null) {
        if (!column.nullable) problems.push({ row: index, column: key, message: typeProblem(column.kind === 'date' ? 'date-time' : column.column.type, null) })
        else if (column.required) problems.push({ row: index, column: key, message: 'required, received null' })
        values.set(key, null)
        continue
      }
      const problem = valueProblem(column, value, budget)
      if (problem) problems.push({ row: index, column: key, message: problem })
      else {
        values.set(key, column.kind === 'date' ? normalizeDateTime(value) : value)
        userData[key] = value
      }
    }
    if (mode === 'insert') {
      for (const column of columns) {
        if (values.has(column.name)) continue
        if (column.required) problems.push({ row: index, column: column.name, message: 'required, received missing' })
        else if (!column.nullable) problems.push({ row: index, column: column.name, message: 'the column is not nullable, received missing' })
        values.set(column.name, null)
      }
    }
    const full = merged ? merged(index, userData) : userData
    const bytes = Buffer.byteLength(JSON.stringify(full))
    if (bytes > maxBytes) {
      problems.push({ row: index, column: '(row)', message: `row is ${bytes} bytes, the limit is ${maxBytes} (4 KB × factor ${factor})` })
    }
    rows.push(values)
  })
  const warnings = [...ignored].map((name) => `Column "${name}" is not in the table schema; its values were ignored`)
  return { rows, problems, warnings }
}

/**
 * The `InvalidDataFormat` error listing refused values (`rows.3.age: expected number, received "x"`),
 * at most 20 lines, all of them in `metadata.issues`. `firstRowIndex` is added to every row index, so rows
 * of a file imported in parts are numbered from the start of the file.
 *
 * @example
 * ```ts
 * if (validated.problems.length) throw rowProblemsError(validated.problems)
 * rowProblemsError([{ row: 0, column: 'age', message: 'expected number, received "x"' }], 2000).message
 * // '1 value does not fit the table schema; no row was written: rows.2000.age: expected number, received "x"'
 * ```
 */
export function rowProblemsError(found: ReadonlyArray<RowProblem>, firstRowIndex = 0): TablesStoreError {
  const problems = found.map((p) => ({ ...p, row: p.row + firstRowIndex }))
  const lines = problems.slice(0, 20).map((p) => `rows.${p.row}.${p.column}: ${p.message}`)
  if (problems.length > 20) lines.push(`… and ${problems.length - 20} more`)
  const lead = `${problems.length} value${problems.length === 1 ? '' : 's'} do${problems.length === 1 ? 'es' : ''} not fit the table schema; no row was written`
  const message = lines.length === 1 ? `${lead}: ${lines[0]}` : `${lead}:\n${lines.map((l) => `  - ${l}`).join('\n')}`
  return new TablesStoreError('InvalidDataFormat', 'INVALID_ROW', message, {
    issues: problems.map((p) => ({ path: `rows.${p.row}.${p.column}`, row: p.row, column: p.column, message: p.message })),
  })
}

/**
 * Checks patches of existing rows (`updateRows` on every engine). Rows named twice are patched in turn: the size
 * check sees each row as the patches before it left it. `current` holds each named row's user data before the call.
 *
 * @example
 * ```ts
 * const { rows, problems } = validatePatches(columns, [{ id: 1, total: 13 }], 1, new Map([[1, { total: 12 }]]))
 * ```
 */
export function validatePatches(
  columns: ReadonlyArray<TableColumn>,
  input: ReadonlyArray<Record<string, unknown> & { id: number }>,
  factor: number,
  current: ReadonlyMap<number, Record<string, unknown>>,
): ValidatedRows {
  const state = new Map(current)
  return validateRows(columns, input, 'patch', factor, (index, changes) => {
    const id = input[index]!.id
    const merged = { ...state.get(id)!, ...changes }
    for (const [key, value] of Object.entries(input[index]!)) if (value === null) delete merged[key]
    state.set(id, merged)
    return merged
  })
}
