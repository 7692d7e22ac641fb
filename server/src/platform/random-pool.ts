import { randomBytes } from 'node:crypto'

/** How many random bytes are drawn from the system at a time. */
const POOL_BYTES = 4096

let pool = Buffer.alloc(0)
let offset = 0

/**
 * `count` cryptographically random bytes (at most 4096), taken from a pool drawn 4 KB at a time: an id then costs a
 * slice instead of a call into OpenSSL (decision 1471). Every byte is handed out once; a pool that runs out is
 * replaced by a fresh one, never refilled in place, so a returned view keeps its bytes.
 *
 * @example
 * ```ts
 * pooledRandomBytes(16).toString('hex') // '9f1c…' (32 hex digits)
 * ```
 */
export function pooledRandomBytes(count: number): Buffer {
  if (!Number.isInteger(count) || count < 0 || count > POOL_BYTES) {
    throw new RangeError(`count: expected a whole number from 0 to ${POOL_BYTES}, received ${String(count)}`)
  }
  if (offset + count > pool.length) {
    pool = randomBytes(POOL_BYTES)
    offset = 0
  }
  const bytes = pool.subarray(offset, offset + count)
  offset += count
  return bytes
}
