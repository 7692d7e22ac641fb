import type { Row } from 'botshelf/api'
import type { ColumnKind } from './column-kinds.js'
import type { TableColumns } from './table-columns.js'

/** A row as an engine returns it: `id`, `created_at`, `updated_at` and the `c<N>` columns. */
export type RawRow = Record<string, unknown>

/** How an engine turns a stored column value back into its wire value (booleans, JSON text…). */
export type ValueDecoder = (kind: ColumnKind, value: unknown) => unknown

/** The two readings of a stored row every adapter needs, bound to the engine's value decoder. */
export interface StoredRowReader {
  /** The wire row (every column, `null` when empty). */
  rowFromRaw(table: Pick<TableColumns, 'columns'>, raw: RawRow): Row
  /** The user values without empty columns: what a row's size is measured on. */
  userData(table: Pick<TableColumns, 'columns'>, raw: RawRow): Record<string, unknown>
}

/**
 * Reads stored rows the same way on every engine; only the decoding of one value is the engine's.
 *
 * @example
 * ```ts
 * export const { rowFromRaw, userData } = storedRowReader(decodeValue)
 * rowFromRaw(rt, raw) // { id: 1, createdAt, updatedAt, computed: {}, total: 12 }
 * userData(rt, raw) // { total: 12 }
 * ```
 */
export function storedRowReader(decode: ValueDecoder): StoredRowReader {
  return {
    rowFromRaw(table, raw) {
      const row: Row = { id: raw['id'] as number, createdAt: raw['created_at'] as string, updatedAt: raw['updated_at'] as string, computed: {} }
      for (const c of table.columns) row[c.name] = decode(c.kind, raw[c.physical])
      return row
    },
    userData(table, raw) {
      const data: Record<string, unknown> = {}
      for (const c of table.columns) {
        const value = raw[c.physical]
        if (value !== null && value !== undefined) data[c.name] = decode(c.kind, value)
      }
      return data
    },
  }
}
