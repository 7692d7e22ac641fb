import { z } from 'zod'

/** A value a filter compares a column with. */
export type FilterScalar = string | number | boolean | null

/**
 * The operators of one column condition (docs/wire-format.md §17). Several operators in one object are ANDed.
 *
 * @example
 * ```ts
 * const c: ColumnCondition = { $gte: 18, $lt: 65 }
 * ```
 */
export interface ColumnCondition {
  $eq?: FilterScalar | unknown[] | Record<string, unknown>
  $ne?: FilterScalar | unknown[] | Record<string, unknown>
  $gt?: string | number
  $gte?: string | number
  $lt?: string | number
  $lte?: string | number
  $in?: FilterScalar[]
  $nin?: FilterScalar[]
  $exists?: boolean
  /** `[divisor, remainder]`: the integer part of the value modulo `divisor` equals `remainder`. */
  $mod?: [number, number]
  /** Array length. */
  $size?: number
  /** JavaScript regular expression source. */
  $regex?: string
  /** Regex flags: any of `i`, `m`, `s`, `u`. */
  $options?: string
  /** Negates the operators inside. */
  $not?: ColumnCondition
}

/**
 * A row filter: column conditions (a bare value means `$eq`), combined by implicit AND, `$and`,
 * `$or` and `$not`. System columns `id`, `createdAt`, `updatedAt` can be filtered too.
 *
 * @example
 * ```ts
 * const filter: RowFilter = { status: 'open', $or: [{ priority: { $gte: 3 } }, { owner: { $exists: false } }] }
 * ```
 */
export interface RowFilter {
  $and?: RowFilter[]
  $or?: RowFilter[]
  $not?: RowFilter
  [column: string]: FilterScalar | ColumnCondition | RowFilter | RowFilter[] | unknown[] | undefined
}

/** Every operator the filter language knows. */
export const filterOperators = [
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$mod', '$size', '$regex', '$options', '$not',
] as const

/** Regex flags `$options` accepts (JavaScript flags; `g` and `y` make no sense for a match test). */
export const regexFlags = ['i', 'm', 's', 'u'] as const

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Wire schema of `filter`: any JSON object at this level; its grammar (operators, columns, operand
 * types) is checked by the server against the table and answered with `InvalidQuery` naming the culprit.
 *
 * @example
 * ```ts
 * RowFilterSchema.parse({ name: { $regex: '^a', $options: 'i' } })
 * ```
 */
export const RowFilterSchema = z.custom<RowFilter>(isPlainObject, { message: 'expected an object' })

/** Aggregations `group` knows; each output key is `<column><Op>` (`statusKey`, `totalSum`). */
export const groupOperations = ['key', 'count', 'sum', 'avg', 'max', 'min', 'unique'] as const

/** One `group` aggregation. */
export type GroupOperation = (typeof groupOperations)[number]

/**
 * `group`: `{ column: op | op[] }`.
 *
 * @example
 * ```ts
 * GroupSchema.parse({ status: 'key', total: ['sum', 'avg'] })
 * ```
 */
export const GroupSchema = z.record(z.string(), z.union([z.enum(groupOperations), z.array(z.enum(groupOperations)).min(1)]))

/** A `group` specification. */
export type Group = z.infer<typeof GroupSchema>

/**
 * The output key of one aggregation: the column followed by the capitalized operation.
 *
 * @example
 * ```ts
 * groupOutputKey('status', 'key') // 'statusKey'
 * groupOutputKey('total', 'sum') // 'totalSum'
 * ```
 */
export function groupOutputKey(column: string, operation: GroupOperation): string {
  return `${column}${operation[0]!.toUpperCase()}${operation.slice(1)}`
}
