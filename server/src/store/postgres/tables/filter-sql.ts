import { invalidQuery } from '../../tables/errors.js'
import type { ComparisonOperator, ElementOperand, FilterNode, FilterOperand, PathTarget } from '../../tables/filter/index.js'
import { SqlParams } from './params.js'
import type { ColumnSql } from './runtime.js'
import { balanced } from '../../tables/filter/index.js'

/** A `$regex` condition of a filter. */
export type RegexNode = Extract<FilterNode, { type: 'regex' }>

/**
 * The values each `$regex` condition of a filter matches, found beforehand (see `regex-matches.ts`): PostgreSQL's
 * own regular expressions are not RE2, so the condition becomes "the value is one of these".
 */
export type RegexMatches = ReadonlyMap<RegexNode, readonly string[]>

/** The conditions that read one target, column or path alike. */
type TargetCondition = Extract<FilterNode, { type: 'exists' | 'compare' | 'mod' | 'size' | 'regex' }>

const COMPARISONS: Readonly<Record<ComparisonOperator, string>> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }

const INT_MIN = -2147483648
const INT_MAX = 2147483647
const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n

/** The cast of an operand's parameter, and its value (objects and arrays as the JSON text the columns hold). */
function operandParam(operand: FilterOperand | ElementOperand): { value: unknown; cast: string } {
  switch (operand.type) {
    case 'number':
      return { value: operand.value, cast: 'float8' }
    case 'boolean':
      return { value: operand.value, cast: 'boolean' }
    case 'object':
    case 'array':
      return { value: JSON.stringify(operand.value), cast: 'text' }
    default:
      return { value: operand.value, cast: 'text' }
  }
}

/** An integer as PostgreSQL's `bigint` text, saturated at its bounds (SQLite converts to INTEGER the same way). */
function int64(value: number): string {
  const big = BigInt(Math.trunc(value))
  return (big > INT64_MAX ? INT64_MAX : big < INT64_MIN ? INT64_MIN : big).toString()
}

/** PostgreSQL text cannot hold U+0000, so no stored value has it: refused rather than failing in the server. */
function checkText(value: string): string {
  if (value.includes('\u0000')) throw invalidQuery('filter: text with the character U+0000 cannot be compared; PostgreSQL text never holds it')
  return value
}

/** The saturated integer part of a number expression as `bigint` (SQLite's CAST AS INTEGER). */
function integerPart(number: string): string {
  return `(CASE WHEN ${number} >= 9223372036854775807::float8 THEN 9223372036854775807::bigint WHEN ${number} <= -9223372036854775808::float8 THEN (-9223372036854775808)::bigint ELSE trunc(${number})::bigint END)`
}

class FilterCompiler {
  constructor(
    private readonly columnSql: ColumnSql,
    private readonly params: SqlParams,
    private readonly matches: RegexMatches,
  ) {}

  private param(operand: FilterOperand | ElementOperand): string {
    const { value, cast } = operandParam(operand)
    if (typeof value === 'string') checkText(value)
    return this.params.add(value, cast)
  }

  compile(node: FilterNode): string {
    switch (node.type) {
      case 'all':
        return 'true'
      case 'and':
      case 'or':
        return balanced(
          node.nodes.map((n) => this.compile(n)),
          node.type === 'and' ? ' AND ' : ' OR ',
        )
      case 'not':
        return `(NOT ${this.compile(node.node)})`
      case 'contains':
        return this.compileContains(node.operands, this.columnSql(node.target.column))
      case 'in': {
        const column = this.columnSql(node.target.column)
        const whole = node.target.kind === 'object' || node.target.kind === 'array'
        const values = node.operands.map((o) => this.operandFor(node.target.column, o, node.operands))
        return `(${column} IS NOT NULL AND ${whole ? `${column}::text` : column} IN (${values.join(', ')}))`
      }
      default:
        return node.target.type === 'path' ? this.compileAtPath(node, node.target) : this.compileAtColumn(node, node.target.column, node.target.kind)
    }
  }

  /** `id` compared as an integer when every operand is one, so its primary key index serves. */
  private operandFor(column: string, operand: FilterOperand, all: readonly FilterOperand[]): string {
    const integral = all.every((o) => o.type === 'number' && Number.isInteger(o.value) && o.value >= INT_MIN && o.value <= INT_MAX)
    if (column === 'id' && integral) return this.params.add(operand.value, 'int')
    return this.param(operand)
  }

  /** Some element of the array column equals one of the operands, compared with elements of the same JSON type. */
  private compileContains(operands: readonly ElementOperand[], column: string): string {
    const tests: string[] = []
    const strings = operands.filter((o) => o.type === 'string').map((o) => checkText(o.value as string))
    const numbers = operands.filter((o) => o.type === 'number').map((o) => o.value as number)
    const booleans = operands.filter((o) => o.type === 'boolean').map((o) => String(o.value))
    if (strings.length) tests.push(`(json_typeof(e.v) = 'string' AND (e.v #>> '{}') = ANY(${this.params.add(strings, 'text[]')}))`)
    if (numbers.length) tests.push(`(CASE WHEN json_typeof(e.v) = 'number' THEN (e.v #>> '{}')::float8 = ANY(${this.params.add(numbers, 'float8[]')}) ELSE false END)`)
    if (booleans.length) tests.push(`(json_typeof(e.v) = 'boolean' AND (e.v #>> '{}') = ANY(${this.params.add(booleans, 'text[]')}))`)
    return `(${column} IS NOT NULL AND EXISTS (SELECT 1 FROM json_array_elements(${column}) AS e(v) WHERE ${tests.join(' OR ')}))`
  }

  private regexValues(node: RegexNode): string {
    const values = this.matches.get(node)
    if (!values) throw new Error(`No values were matched for the $regex at ${node.path}`)
    return this.params.add(values, 'text[]')
  }

  /** A condition on a column: NULL (no value) never matches, so `NOT` stays exact. */
  private compileAtColumn(node: TargetCondition, name: string, kind: string): string {
    const column = this.columnSql(name)
    switch (node.type) {
      case 'exists':
        return node.exists ? `(${column} IS NOT NULL)` : `(${column} IS NULL)`
      case 'compare': {
        const whole = kind === 'object' || kind === 'array'
        const value = this.operandFor(name, node.operand, [node.operand])
        return `(${column} IS NOT NULL AND ${whole ? `${column}::text` : column} ${COMPARISONS[node.op]} ${value})`
      }
      case 'mod':
        return this.compileMod(column, node.divisor, node.remainder)
      case 'size':
        return `(${column} IS NOT NULL AND json_array_length(${column}) = ${this.params.add(node.size, 'int')})`
      case 'regex':
        return `(${column} IS NOT NULL AND ${column} = ANY(${this.regexValues(node)}))`
    }
  }

  /** `$mod` as on SQLite: the integer part (truncated toward zero, saturated) modulo the divisor, sign of the value. */
  private compileMod(number: string, divisor: number, remainder: number): string {
    // |divisor| 1 leaves no remainder (and bigint's minimum % -1 would overflow).
    if (Math.abs(divisor) === 1) return `(${number} IS NOT NULL AND 0 = ${this.params.add(remainder, 'float8')})`
    return `(${number} IS NOT NULL AND (${integerPart(number)} % ${this.params.add(int64(divisor), 'bigint')}) = ${this.params.add(remainder, 'float8')})`
  }

  /**
   * A condition on a value inside an object column, guarded by its JSON type (docs/decisions/0405-filter-semantics.md).
   * Each step is an object key lookup (`->` with text), never an array index, as SQLite's `$."key"` paths.
   */
  private compileAtPath(node: TargetCondition, target: PathTarget): string {
    const column = this.columnSql(target.column)
    const keys = target.path.map((segment) => this.params.add(segment, 'text'))
    const json = `(${column} -> ${keys.join(' -> ')})`
    const text = keys.length === 1 ? `(${column} ->> ${keys[0]})` : `(${column} -> ${keys.slice(0, -1).join(' -> ')} ->> ${keys[keys.length - 1]})`
    const type = `coalesce(json_typeof(${json}), 'null')`
    switch (node.type) {
      case 'exists':
        return node.exists ? `(${type} <> 'null')` : `(${type} = 'null')`
      case 'compare': {
        if (node.operand.type === 'boolean') return `(${type} = 'boolean' AND ${text} = '${node.operand.value ? 'true' : 'false'}')`
        const value = this.param(node.operand)
        if (node.operand.type === 'number') return `(CASE WHEN ${type} = 'number' THEN ${text}::float8 ${COMPARISONS[node.op]} ${value} ELSE false END)`
        return `(${type} = 'string' AND ${text} COLLATE "C" ${COMPARISONS[node.op]} ${value})`
      }
      case 'mod':
        return `(CASE WHEN ${type} = 'number' THEN ${this.compileMod(`${text}::float8`, node.divisor, node.remainder)} ELSE false END)`
      case 'size':
        return `(CASE WHEN ${type} = 'array' THEN json_array_length(${json}) = ${this.params.add(node.size, 'int')} ELSE false END)`
      case 'regex':
        return `(${type} = 'string' AND ${text} = ANY(${this.regexValues(node)}))`
    }
  }
}

/**
 * Compiles a validated filter (`parseFilter`) to a PostgreSQL boolean expression that is never NULL, so `NOT`
 * means what it says for rows without a value, from the same AST as SQLite's compiler and with the same meaning.
 * Values are always parameters (added to `params`), JSON path keys too. A `$regex` condition reads the values
 * `matches` holds for it (see `matchRegexValues`); a filter without `$regex` needs none.
 *
 * @example
 * ```ts
 * const params = new SqlParams()
 * compileFilterSql(parseFilter({ age: { $gte: 18 } }, kindOf), (column) => `t."${physicalOf(column)}"`, params)
 * // '(t."c2" IS NOT NULL AND t."c2" >= $1::float8)', params.values: [18]
 * ```
 */
export function compileFilterSql(node: FilterNode, columnSql: ColumnSql, params: SqlParams, matches: RegexMatches = new Map()): string {
  return new FilterCompiler(columnSql, params, matches).compile(node)
}

/**
 * The `$regex` conditions of a filter, each with the regex-free conditions every row it decides must also meet
 * (its AND siblings, and theirs up the tree): only rows meeting them need their value matched.
 *
 * @example
 * ```ts
 * regexConditions(parseFilter({ status: 'open', name: { $regex: '^a' } }, kindOf)) // [{ node: <name $regex>, context: [<status = open>] }]
 * ```
 */
export function regexConditions(root: FilterNode): Array<{ node: RegexNode; context: FilterNode[] }> {
  const found: Array<{ node: RegexNode; context: FilterNode[] }> = []
  const walk = (node: FilterNode, context: FilterNode[]): void => {
    switch (node.type) {
      case 'regex':
        found.push({ node, context })
        return
      case 'not':
        walk(node.node, context)
        return
      case 'or':
        for (const child of node.nodes) walk(child, context)
        return
      case 'and': {
        const plain = node.nodes.filter((n) => !hasRegex(n))
        for (const child of node.nodes) if (hasRegex(child)) walk(child, [...context, ...plain])
        return
      }
      default:
        return
    }
  }
  walk(root, [])
  return found
}

/**
 * Tells whether a filter has a `$regex` condition.
 *
 * @example
 * ```ts
 * hasRegex({ type: 'all' }) // false
 * ```
 */
export function hasRegex(node: FilterNode): boolean {
  switch (node.type) {
    case 'regex':
      return true
    case 'and':
    case 'or':
      return node.nodes.some(hasRegex)
    case 'not':
      return hasRegex(node.node)
    default:
      return false
  }
}

/**
 * The text a `$regex` condition reads (a string column, or a string inside an object column) and the guard
 * that keeps the rows holding one, as SQL over `params`.
 *
 * @example
 * ```ts
 * regexSubject(node, columnSql, params) // { value: 't."c1"', guard: 't."c1" IS NOT NULL' }
 * ```
 */
export function regexSubject(node: RegexNode, columnSql: ColumnSql, params: SqlParams): { value: string; guard: string } {
  const column = columnSql(node.target.column)
  if (node.target.type === 'column') return { value: column, guard: `${column} IS NOT NULL` }
  const keys = node.target.path.map((segment) => params.add(segment, 'text'))
  const json = `(${column} -> ${keys.join(' -> ')})`
  const text = keys.length === 1 ? `(${column} ->> ${keys[0]})` : `(${column} -> ${keys.slice(0, -1).join(' -> ')} ->> ${keys[keys.length - 1]})`
  return { value: text, guard: `json_typeof(${json}) = 'string'` }
}
