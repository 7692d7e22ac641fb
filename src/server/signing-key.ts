import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The app's signing secret: read from `<dataDir>/signing-key`, or created there (32 random bytes, hex, mode
 * 0600, written atomically) on first start. Without a data folder, a fresh random key.
 *
 * @example
 * ```ts
 * const key = loadSigningKey('./.botshelf') // same bytes on every start
 * ```
 */
export function loadSigningKey(dataDir: string | null): Buffer {
  if (dataDir === null) return randomBytes(32)
  const file = join(dataDir, 'signing-key')
  try {
    const hex = readFileSync(file, 'utf8').trim()
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex')
    throw new Error(`The signing key file ${file} is corrupt (expected 64 hex characters); delete it to make a new one (signed URLs and list tokens in circulation stop working)`)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(32)
  const temp = `${file}.tmp-${process.pid}`
  const fd = openSync(temp, 'w', 0o600)
  try {
    writeSync(fd, key.toString('hex'))
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(temp, file)
  return key
}
