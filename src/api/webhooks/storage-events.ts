import { z } from 'zod'
import { FileSchema } from '../files/file.js'
import { TableJobSchema } from '../tables/job.js'
import { RowSchema } from '../tables/row.js'
import { TableSchema } from '../tables/table.js'

/** Most rows one `table.rows.*` event carries; a larger write makes several events. */
export const ROWS_PER_EVENT = 100

const filePayload = z.object({ file: FileSchema })
const tablePayload = z.object({ table: TableSchema })
const rowsPayload = z.object({ table: z.string(), rows: z.array(RowSchema).min(1).max(ROWS_PER_EVENT) })
const deletedRowsPayload = z.object({ table: z.string(), rows: z.array(z.object({ id: z.number().int() })).min(1).max(ROWS_PER_EVENT) })
const jobPayload = z.object({ job: TableJobSchema })
/** A workflow column's cell to compute (issue 25, decision 1424): the bot runs action `workflowId` with the row. */
const rowComputePayload = z.object({ table: z.string(), row: RowSchema, column: z.string(), workflowId: z.string() })

/**
 * Every storage event type and the schema of its payload: the one definition the service emits from and the
 * runtime registers. Adding a type is adding one entry here (the wire, the docs checks and the runtime follow).
 *
 * @example
 * ```ts
 * storageEventPayloads['file.indexed'].parse({ file })
 * ```
 */
export const storageEventPayloads = {
  'file.created': filePayload,
  'file.updated': filePayload,
  'file.deleted': filePayload,
  'file.indexed': filePayload,
  'file.indexing_failed': filePayload,
  'table.created': tablePayload,
  'table.updated': tablePayload,
  'table.deleted': tablePayload,
  'table.rows.created': rowsPayload,
  'table.rows.updated': rowsPayload,
  'table.rows.deleted': deletedRowsPayload,
  'table.import.completed': jobPayload,
  'table.import.failed': jobPayload,
  'table.export.completed': jobPayload,
  'table.export.failed': jobPayload,
  'table.row.compute': rowComputePayload,
} as const

/** A storage event type: `file.created`, `table.rows.updated`, ... */
export type StorageEventType = keyof typeof storageEventPayloads & string

/** The payload of a storage event type. */
export type StorageEventPayload<T extends StorageEventType> = z.output<(typeof storageEventPayloads)[T]>

/** Every storage event type, in the order of the docs. */
export const storageEventTypes = Object.freeze(Object.keys(storageEventPayloads)) as ReadonlyArray<StorageEventType>

/**
 * True for a storage event type name.
 *
 * @example
 * ```ts
 * isStorageEventType('file.indexed') // true
 * ```
 */
export function isStorageEventType(value: unknown): value is StorageEventType {
  return typeof value === 'string' && Object.hasOwn(storageEventPayloads, value)
}

/** The name of a type: a storage event type (unknown names are refused with the list). */
export const StorageEventTypeSchema = z.enum(Object.keys(storageEventPayloads) as [StorageEventType, ...StorageEventType[]])

/**
 * The body of one delivery: a bot event object (docs/wire-format.md §18) whose payload is the type's.
 *
 * @example
 * ```ts
 * const event = StorageEventSchema.parse(JSON.parse(body))
 * ```
 */
export const StorageEventSchema = z.object({
  id: z.string(),
  botId: z.string(),
  type: StorageEventTypeSchema,
  direction: z.literal('incoming'),
  createdOn: z.string(),
  payload: z.record(z.string(), z.unknown()),
  preview: z.string(),
  state: z.object({}),
  tags: z.record(z.string(), z.record(z.string(), z.string())).optional(),
})

/** A storage event as delivered. */
export type StorageEvent<T extends StorageEventType = StorageEventType> = Omit<z.output<typeof StorageEventSchema>, 'type' | 'payload'> & {
  type: T
  payload: StorageEventPayload<T>
}
