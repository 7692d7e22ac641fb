import { z } from 'zod'
import { filesLimits } from './limits.js'

const oneOrMany = z.union([z.string(), z.array(z.string())])

/**
 * The operator form of one tag condition: `not` excludes values, `in` includes values, `exists` asks for
 * presence (`true`) or absence (`false`). Several operators on one tag are ANDed.
 *
 * @example
 * ```ts
 * TagConditionSchema.parse({ not: ['webchat', 'telegram'] })
 * ```
 */
export const TagConditionSchema = z.strictObject({
  not: oneOrMany.optional(),
  in: oneOrMany.optional(),
  exists: z.boolean().optional(),
})

function valueCount(condition: string | string[] | z.infer<typeof TagConditionSchema>): number {
  const count = (values: string | string[] | undefined) => (values === undefined ? 0 : typeof values === 'string' ? 1 : values.length)
  if (typeof condition === 'string' || Array.isArray(condition)) return count(condition)
  return count(condition.in) + count(condition.not)
}

/**
 * The tag filter of `listFiles`, `searchFiles` and `listKnowledgeBases` (docs/wire-format.md §9):
 * `{k: 'v'}` equality, `{k: ['a','b']}` OR over values, `{k: {not}}`, `{k: {in}}`, `{k: {exists}}`.
 * Several keys are ANDed. At most 50 keys, and 100 values per key (`in` and `not` together), so a filter
 * always fits one database query (docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * TagFilterSchema.parse({ category: ['Sales', 'Marketing'], integrationName: { not: 'webchat' }, other: { exists: false } })
 * // on the wire: ?tags.category=Sales&tags.category=Marketing&tags.integrationName.not=webchat&tags.other.exists=false
 * ```
 */
export const TagFilterSchema = z
  .record(z.string().min(1), z.union([z.string(), z.array(z.string()), TagConditionSchema]))
  .superRefine((filter, ctx) => {
    const keys = Object.keys(filter)
    if (keys.length > filesLimits.tagFilterKeysMax) {
      ctx.addIssue({ code: 'custom', message: `expected at most ${filesLimits.tagFilterKeysMax} tag keys, received ${keys.length}`, input: filter })
      return
    }
    for (const key of keys) {
      const values = valueCount(filter[key]!)
      if (values > filesLimits.tagFilterValuesMax) {
        ctx.addIssue({ code: 'custom', path: [key], message: `expected at most ${filesLimits.tagFilterValuesMax} values, received ${values}`, input: filter[key] })
      }
    }
  })

/** A tag filter. */
export type TagFilter = z.infer<typeof TagFilterSchema>

/** One tag condition after normalization: every form reduced to lists of values and a presence flag. */
export interface NormalizedTagCondition {
  key: string
  /** The tag must equal one of these (absent: no constraint). */
  anyOf?: string[]
  /** The tag must not equal any of these (a file without the tag passes). */
  noneOf?: string[]
  /** `true`: the tag must be present; `false`: it must be absent. */
  exists?: boolean
}

function asList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value
}

/**
 * Reduces a tag filter to plain conditions a store can translate to SQL. `in` and the bare forms both
 * become `anyOf`.
 *
 * @example
 * ```ts
 * normalizeTagFilter({ a: 'x', b: { not: ['y'] } })
 * // [{ key: 'a', anyOf: ['x'] }, { key: 'b', noneOf: ['y'] }]
 * ```
 */
export function normalizeTagFilter(filter: TagFilter | undefined): NormalizedTagCondition[] {
  if (!filter) return []
  return Object.entries(filter).map(([key, value]) => {
    if (typeof value === 'string' || Array.isArray(value)) return { key, anyOf: asList(value) }
    const condition: NormalizedTagCondition = { key }
    if (value.in !== undefined) condition.anyOf = asList(value.in)
    if (value.not !== undefined) condition.noneOf = asList(value.not)
    if (value.exists !== undefined) condition.exists = value.exists
    return condition
  })
}
