import type { ColumnKind } from '../column-kinds.js'

/** A column a condition reads: a user column or a system column (`id`, `createdAt`, `updatedAt`), with its kind. */
export interface ColumnTarget {
  type: 'column'
  column: string
  kind: ColumnKind
}

/**
 * A value inside an object column, reached by a dot path (`attributes.price` → column `attributes`, path
 * `['price']`). Values there are compared only with operands of the same JSON type (docs/decisions/0405-filter-semantics.md).
 */
export interface PathTarget {
  type: 'path'
  column: string
  path: string[]
}

/** What a condition reads. */
export type FilterTarget = ColumnTarget | PathTarget

/**
 * An operand checked against its target: at a column, of the column's kind (`date` operands normalized to ISO
 * UTC); at a path, a string or a number (or a boolean, for equality only).
 */
export type FilterOperand =
  | { type: 'string'; value: string }
  | { type: 'number'; value: number }
  | { type: 'boolean'; value: boolean }
  | { type: 'date'; value: string }
  | { type: 'object'; value: Record<string, unknown> }
  | { type: 'array'; value: unknown[] }

/** One element an array column is searched for (`{ tags: 'x' }`, `{ tags: { $in: ['x', 'y'] } }`). */
export type ElementOperand = Extract<FilterOperand, { type: 'string' | 'number' | 'boolean' }>

/** Comparison operators: `$eq`, `$gt`, `$gte`, `$lt`, `$lte`. */
export type ComparisonOperator = 'eq' | 'gt' | 'gte' | 'lt' | 'lte'

/**
 * A filter, validated against a table: every column exists, every operator applies to its target and every
 * operand has the right type. "No value" and `null` are the same (docs/decisions/0405-filter-semantics.md), so a
 * condition never matches a row without a value unless it says so (`exists: false`), and `not` is exact.
 *
 * - `all`: every row (the empty filter `{}`).
 * - `and` / `or` / `not`: `$and`, implicit AND of keys and operators, `$or`, `$not`, `$ne`, `$nin`.
 * - `exists`: `$exists`, and `null` as a value (`{ c: null }` is `exists: false`).
 * - `compare`: a bare value, `$eq`, `$gt`, `$gte`, `$lt`, `$lte`.
 * - `in`: `$in` on a scalar column (non-null values; a `null` in the list becomes an `or` with `exists: false`).
 * - `contains`: a scalar `$eq` or `$in` on an array column: some element equals one of `values`.
 * - `mod`: `$mod` (the integer part of the value, truncated toward zero, modulo `divisor`).
 * - `size`: `$size` (array length).
 * - `regex`: `$regex` with its `$options`, an RE2 pattern already compiled once to check it, and the path of the
 *   `$regex` in the filter (`filter.name.$regex`), which errors raised while matching name.
 *
 * The language has no `$nor`: a top-level `$not` takes a filter and means the same.
 */
export type FilterNode =
  | { type: 'all' }
  | { type: 'and'; nodes: FilterNode[] }
  | { type: 'or'; nodes: FilterNode[] }
  | { type: 'not'; node: FilterNode }
  | { type: 'exists'; target: FilterTarget; exists: boolean }
  | { type: 'compare'; target: FilterTarget; op: ComparisonOperator; operand: FilterOperand }
  | { type: 'in'; target: ColumnTarget; operands: FilterOperand[] }
  | { type: 'contains'; target: ColumnTarget; operands: ElementOperand[] }
  | { type: 'mod'; target: FilterTarget; divisor: number; remainder: number }
  | { type: 'size'; target: FilterTarget; size: number }
  | { type: 'regex'; target: FilterTarget; pattern: string; flags: string; path: string }
