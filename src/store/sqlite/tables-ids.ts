import { randomBytes } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A ULID: 10 characters of millisecond time then 16 random Crockford base32 characters, so ids sort by
 * creation time.
 *
 * @example
 * ```ts
 * tablesUlid(new Date()) // '01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function tablesUlid(now: Date): string {
  let time = now.getTime()
  let head = ''
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32]! + head
    time = Math.floor(time / 32)
  }
  const random = randomBytes(16)
  let tail = ''
  for (const byte of random) tail += CROCKFORD[byte % 32]!
  return head + tail
}

/**
 * A table id: `table_` + ULID. Never confused with a name, since names end with `Table`.
 *
 * @example
 * ```ts
 * newTableId(new Date()) // 'table_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newTableId(now: Date): string {
  return `table_${tablesUlid(now)}`
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
  return `tjob_${tablesUlid(now)}`
}
