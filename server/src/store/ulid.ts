import { pooledRandomBytes } from '../platform/random-pool.js'

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** The last id's millisecond and random digits: the next id of the same millisecond counts up from them. */
let lastTime = -1
let lastTail: number[] = []

/**
 * A ULID (26 Crockford base32 characters: 48-bit time, 80 random bits), sortable by creation time; ids made by
 * this process within one millisecond increase in the order they were made.
 *
 * @example
 * ```ts
 * newUlid(new Date()) // '01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newUlid(now: Date): string {
  const ms = now.getTime()
  let time = ms
  let head = ''
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32]! + head
    time = Math.floor(time / 32)
  }
  // Within one millisecond, ids of this process increase (the random part counts up), so ties sort in creation order.
  if (ms === lastTime && !incremented(lastTail)) lastTail = []
  if (ms !== lastTime || lastTail.length === 0) {
    const random = pooledRandomBytes(16)
    lastTail = Array.from(random, (byte) => byte % 32)
    lastTime = ms
  }
  return head + lastTail.map((digit) => CROCKFORD[digit]!).join('')
}

/** Adds one to a base-32 digit list in place; false when it overflows (all digits were 31). */
function incremented(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i]! += 1
      return true
    }
    digits[i] = 0
  }
  return false
}
