import { randomBytes } from 'node:crypto'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A ULID (26 Crockford base32 characters: 48-bit time, 80 random bits), sortable by creation time.
 *
 * @example
 * ```ts
 * newUlid(new Date()) // '01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newUlid(now: Date): string {
  let time = now.getTime()
  let head = ''
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32]! + head
    time = Math.floor(time / 32)
  }
  const random = randomBytes(16)
  let tail = ''
  for (let i = 0; i < 16; i++) tail += CROCKFORD[random[i]! % 32]!
  return head + tail
}
