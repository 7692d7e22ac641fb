import { newUlid } from './ulid.js'

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
