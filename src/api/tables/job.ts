import { z } from 'zod'

/** Kinds of table jobs (docs/wire-format.md §16). */
export const tableJobTypes = ['export', 'import', 'clear_column', 'clear_vectors', 'delete_rows', 'duplicate_table'] as const

/** States of a table job. */
export const tableJobStatuses = ['pending', 'in_progress', 'finalizing', 'completed', 'failed'] as const

/**
 * A background job on a table: import, export, ... (docs/wire-format.md §16).
 *
 * @example
 * ```ts
 * TableJobSchema.parse({ id: 'tjob_1', botId: 'b', tableId: 't', type: 'export', status: 'completed', progress: 1,
 *   inputFileId: null, outputFileId: 'file_1', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' })
 * ```
 */
export const TableJobSchema = z.object({
  id: z.string(),
  botId: z.string(),
  tableId: z.string(),
  type: z.enum(tableJobTypes),
  status: z.enum(tableJobStatuses),
  progress: z.number().optional(),
  inputFileId: z.string().nullable(),
  outputFileId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Why a `failed` job failed (a botshelf addition to the wire object; absent otherwise). */
  error: z.string().optional(),
})

/** A table job. */
export type TableJob = z.infer<typeof TableJobSchema>

/**
 * The short job reference `duplicateTable` and `deleteTableRows` may return.
 *
 * @example
 * ```ts
 * JobRefSchema.parse({ id: 'tjob_1', status: 'completed' })
 * ```
 */
export const JobRefSchema = z.object({ id: z.string(), status: z.string() })
