import { newUlid } from '../ulid.js'

const TABLE_ID = /^table_[0-9A-Z]{26}$/

/**
 * A table id: `table_` + ULID. Never confused with a name, since names end with `Table`.
 *
 * @example
 * ```ts
 * newTableId(new Date()) // 'table_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newTableId(now: Date): string {
  return `table_${newUlid(now)}`
}

/**
 * A table job id: `tjob_` + ULID.
 *
 * @example
 * ```ts
 * newTableJobId(new Date()) // 'tjob_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newTableJobId(now: Date): string {
  return `tjob_${newUlid(now)}`
}

/**
 * Tells a table id from a table name: a `ref` naming a table may be either (`table_<ULID>` or `<name>Table`).
 *
 * @example
 * ```ts
 * isTableId('table_01K86HD0D5T3HFCGBEKQJFNKAD') // true
 * isTableId('ordersTable') // false
 * ```
 */
export function isTableId(ref: string): boolean {
  return TABLE_ID.test(ref)
}
