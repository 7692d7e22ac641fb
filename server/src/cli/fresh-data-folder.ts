import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'

/**
 * Remembers whether a data folder existed before a start, so that a start that fails (port in use, bad host)
 * removes the folder it created instead of leaving an empty dataset with a bot nobody saw the token of.
 *
 * @example
 * ```ts
 * const folder = noteDataFolder('./.botshelf')
 * try { await start() } catch (error) { await folder.removeIfNew(); throw error }
 * ```
 */
export function noteDataFolder(dataDir: string): { removeIfNew(): Promise<void> } {
  const path = resolve(dataDir)
  const existed = existsSync(path)
  return {
    async removeIfNew() {
      if (!existed) await rm(path, { recursive: true, force: true })
    },
  }
}
