import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** A held data folder lock; `release()` removes it (idempotent). */
export interface DataLock {
  readonly path: string
  release(): void
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false // a lock left by an earlier process that had our pid (containers restart as pid 1)
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Takes `<dataDir>/botshelf.lock` so that two servers never share a data folder (the second one's startup
 * sweep would delete the first one's uploads in progress). A lock whose process is gone (a crash) is taken
 * over. `botshelf token` commands do not take it: they only touch the tokens table, which SQLite serializes.
 *
 * @example
 * ```ts
 * const lock = lockDataDir('./.botshelf') // throws if another live process holds it
 * lock.release()
 * ```
 */
export function lockDataDir(dataDir: string): DataLock {
  const path = join(dataDir, 'botshelf.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return {
        path,
        release() {
          if (released) return
          released = true
          rmSync(path, { force: true })
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      let holder = NaN
      try {
        holder = Number(readFileSync(path, 'utf8').trim())
      } catch {
        continue // removed meanwhile: try again
      }
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(`The data folder ${dataDir} is in use by another botshelf process (pid ${holder}); stop it first, or use another --data folder`)
      }
      rmSync(path, { force: true }) // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir} (${path} keeps coming back)`)
}
