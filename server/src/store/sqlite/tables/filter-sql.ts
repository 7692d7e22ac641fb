import type { ElementOperand, FilterNode, FilterOperand, PathTarget } from '../../tables/filter/index.js'
import { REGEXP_FUNCTION } from './regex-function.js'
import { balanced } from '../../tables/filter/index.js'
import type { ColumnSql } from '../../tables/column-sql.js'

/** Compiled SQL: a boolean expression that is never NULL, and its positional parameters. */
export interface CompiledSql {
  sql: string
  params: unknown[]
}

/** The conditions that read one target, column or path alike. */
type TargetCondition = Extract<FilterNode, { type: 'exists' | 'compare' | 'mod' | 'size' | 'regex' }>

const COMPARISONS = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const

/** The SQLite value of an operand: booleans as 0/1, objects and arrays as the JSON text the columns hold. */
function bind(operand: FilterOperand | ElementOperand): string | number {
  switch (operand.type) {
    case 'boolean':
      return operand.value ? 1 : 0
    case 'object':
    case 'array':
      return JSON.stringify(operand.value)
    default:
      return operand.value
  }
}

/** `json_extract` and `json_type` of a value inside an object column; the path is a SQL literal, never user SQL. */
function pathSql(columnSql: string, path: readonly string[]): { sql: string; typeSql: string } {
  const literal = `'${`$${path.map((s) => `."${s}"`).join('')}`.replaceAll("'", "''")}'`
  return { sql: `json_extract(${columnSql}, ${literal})`, typeSql: `COALESCE(json_type(${columnSql}, ${literal}), '')` }
}

/** The JSON type test that keeps a nested comparison to operands of the same type (MongoDB's type bracketing). */
function jsonTypeGuard(typeSql: string, operand: FilterOperand): string {
  return operand.type === 'number' ? `${typeSql} IN ('integer', 'real')` : `${typeSql} = 'text'`
}

class FilterCompiler {
  readonly params: unknown[] = []

  constructor(private readonly columnSql: ColumnSql) {}

  compile(node: FilterNode): string {
    switch (node.type) {
      case 'all':
        return '1'
      case 'and':
      case 'or':
        // Compiled in order, so the parameters follow the SQL text.
        return balanced(
          node.nodes.map((n) => this.compile(n)),
          node.type === 'and' ? ' AND ' : ' OR ',
        )
      case 'not':
        return `(NOT ${this.compile(node.node)})`
      case 'contains': {
        const column = this.columnSql(node.target.column)
        this.params.push(...node.operands.map(bind))
        const test = node.operands.length === 1 ? '= ?' : `IN (${node.operands.map(() => '?').join(', ')})`
        return `(${column} IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(${column}) WHERE json_each.value ${test}))`
      }
      case 'in': {
        const column = this.columnSql(node.target.column)
        this.params.push(...node.operands.map(bind))
        return `(${column} IS NOT NULL AND ${column} IN (${node.operands.map(() => '?').join(', ')}))`
      }
      default:
        return node.target.type === 'path' ? this.compileAtPath(node, node.target) : this.compileAtColumn(node, this.columnSql(node.target.column))
    }
  }

  /** A condition on a column: `NULL` (no value) never matches, so `NOT` stays exact. */
  private compileAtColumn(node: TargetCondition, column: string): string {
    switch (node.type) {
      case 'exists':
        return node.exists ? `(${column} IS NOT NULL)` : `(${column} IS NULL)`
      case 'compare':
        this.params.push(bind(node.operand))
        return `(${column} IS NOT NULL AND ${column} ${COMPARISONS[node.op]} ?)`
      case 'mod':
        this.params.push(node.divisor, node.remainder)
        return `(${column} IS NOT NULL AND (CAST(${column} AS INTEGER) % ?) = ?)`
      case 'size':
        this.params.push(node.size)
        return `(${column} IS NOT NULL AND json_array_length(${column}) = ?)`
      case 'regex':
        this.params.push(node.pattern, node.flags, node.path)
        return `(${column} IS NOT NULL AND ${REGEXP_FUNCTION}(?, ?, ?, ${column}) = 1)`
    }
  }

  /** A condition on a value inside an object column, guarded by its JSON type (docs/decisions/0405-filter-semantics.md). */
  private compileAtPath(node: TargetCondition, target: PathTarget): string {
    const { sql, typeSql } = pathSql(this.columnSql(target.column), target.path)
    switch (node.type) {
      case 'exists':
        return node.exists ? `(${sql} IS NOT NULL)` : `(${sql} IS NULL)`
      case 'compare':
        if (node.operand.type === 'boolean') return `(${typeSql} = '${node.operand.value ? 'true' : 'false'}')`
        this.params.push(bind(node.operand))
        return `(${jsonTypeGuard(typeSql, node.operand)} AND ${sql} ${COMPARISONS[node.op]} ?)`
      case 'mod':
        this.params.push(node.divisor, node.remainder)
        return `(${typeSql} IN ('integer', 'real') AND (CAST(${sql} AS INTEGER) % ?) = ?)`
      case 'size':
        this.params.push(node.size)
        return `(${typeSql} = 'array' AND json_array_length(${sql}) = ?)`
      case 'regex':
        this.params.push(node.pattern, node.flags, node.path)
        return `(${typeSql} = 'text' AND ${REGEXP_FUNCTION}(?, ?, ?, ${sql}) = 1)`
    }
  }
}

/**
 * Compiles a validated filter (`parseFilter`) to a parameterized SQLite boolean expression that is never NULL,
 * so `NOT` means what it says for rows without a value. Values are always parameters; JSON paths are literals
 * built from checked segments; `$regex` calls the RE2 function `botshelf_regexp`, to be run under a query budget
 * (`TablesContext.withRegexBudget`).
 *
 * @example
 * ```ts
 * compileFilterSql(parseFilter({ age: { $gte: 18 } }, kindOf), (column) => `t."${physicalOf(column)}"`)
 * // { sql: '(t."c2" IS NOT NULL AND t."c2" >= ?)', params: [18] }
 * ```
 */
export function compileFilterSql(node: FilterNode, columnSql: ColumnSql): CompiledSql {
  const compiler = new FilterCompiler(columnSql)
  const sql = compiler.compile(node)
  return { sql, params: compiler.params }
}

// The SQL of a column the filter names is the tables port's type, the same on every engine.
export type { ColumnSql }
