import { z } from 'zod'
import { tablesLimits } from './limits.js'

/**
 * State of one computed column on a row: `status` is `pending`, `computed`, `failed` or `disabled`, with the
 * failure's `error`, what computed it (`updatedBy`: `ai:<model>`, `code`) and when (docs/tables-api.md).
 *
 * @example
 * ```ts
 * ComputedStateSchema.parse({ status: 'computed', updatedBy: 'code', updatedAt: '2026-01-01T00:00:00.000Z' })
 * ```
 */
export const ComputedStateSchema = z.object({
  status: z.string(),
  error: z.string().optional(),
  updatedBy: z.string().optional(),
  updatedAt: z.string().optional(),
})

/**
 * A row (docs/wire-format.md §15): system fields plus the user columns flattened onto the object.
 *
 * @example
 * ```ts
 * RowSchema.parse({ id: 1, computed: {}, createdAt: '2026-01-01T00:00:00.000Z', name: 'Ada' })
 * ```
 */
export const RowSchema = z.looseObject({
  id: z.number().int(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  computed: z.record(z.string(), ComputedStateSchema),
  stale: z.array(z.string()).optional(),
  similarity: z.number().optional(),
})

/** A row. */
export type Row = z.infer<typeof RowSchema>

/** A row id: a positive int32. */
export const RowIdSchema = z.number().int().min(1).max(tablesLimits.maxRowId)

/**
 * A row as `createTableRows` takes it: user columns only (system fields are ignored with a warning).
 *
 * @example
 * ```ts
 * NewRowSchema.parse({ name: 'Ada' })
 * ```
 */
export const NewRowSchema = z.record(z.string(), z.any())

/**
 * A row as `updateTableRows` takes it: `id` plus the columns to change (`null` clears a column).
 *
 * @example
 * ```ts
 * RowUpdateSchema.parse({ id: 3, status: 'done' })
 * ```
 */
export const RowUpdateSchema = z.looseObject({ id: RowIdSchema })

/**
 * A row as `upsertTableRows` takes it: `id` is optional.
 *
 * @example
 * ```ts
 * RowUpsertSchema.parse({ email: 'a@b.c', name: 'Ada' })
 * ```
 */
export const RowUpsertSchema = z.looseObject({ id: RowIdSchema.optional() })
