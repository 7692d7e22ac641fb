import type { Table } from 'botshelf/api'
import type { TableRecord } from './types.js'

/**
 * The wire `Table` of a catalog record (what the API answers; storage details stay out).
 *
 * @example
 * ```ts
 * const table = tableToWire(record)
 * ```
 */
export function tableToWire(record: TableRecord): Table {
  return {
    id: record.id,
    name: record.name,
    factor: record.factor,
    frozen: record.frozen,
    keyColumn: record.keyColumn,
    schema: record.schema,
    tags: record.tags,
    isComputeEnabled: record.isComputeEnabled,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}
