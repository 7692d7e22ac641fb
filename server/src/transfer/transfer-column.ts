/**
 * How a column's CSV cells are typed on import. The same union as the SQLite store's `ColumnKind`
 * (`date` is a string column with `format: date-time`), restated here so the codecs do not depend on a store.
 */
export type TransferColumnKind = 'string' | 'date' | 'number' | 'boolean' | 'object' | 'array'

/**
 * A user column as the codecs see it. A table's columns are given in `x-zui` index order: that order is the
 * order of the export's CSV header and JSON row keys.
 *
 * @example
 * ```ts
 * const columns: TransferColumn[] = [{ name: 'name', kind: 'string' }, { name: 'score', kind: 'number' }]
 * ```
 */
export interface TransferColumn {
  /** The column's name, e.g. `{ name: 'score' }`. */
  readonly name: string
  /** How its CSV cells are typed on import, e.g. `{ kind: 'number' }`. */
  readonly kind: TransferColumnKind
}

/** The system columns, first in every export and ignored by every CSV import. */
export const SYSTEM_COLUMNS: readonly string[] = ['id', 'createdAt', 'updatedAt']
