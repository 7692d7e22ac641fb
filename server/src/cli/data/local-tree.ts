import { readdir, stat } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { UsageError } from '../io.js'

/** A local file to upload: its path, its path relative to the folder given (with `/`), its size. */
export interface LocalFile {
  path: string
  relativePath: string
  size: number
}

/**
 * The regular files under `root` (itself when it is a file), sorted by relative path, relative paths with `/`
 * whatever the platform. Symbolic links and special files are skipped and reported through `onSkip`.
 *
 * @example
 * ```ts
 * const files = await localFiles('./docs', (path) => console.warn(`skipped ${path}`))
 * ```
 */
export async function localFiles(root: string, onSkip: (path: string, why: string) => void): Promise<{ files: LocalFile[]; isFolder: boolean }> {
  let rootStat
  try {
    rootStat = await stat(root)
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(root)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (error as Error).message}`)
  }
  if (rootStat.isFile()) return { files: [{ path: root, relativePath: basename(root), size: rootStat.size }], isFolder: false }
  if (!rootStat.isDirectory()) throw new UsageError(`${JSON.stringify(root)} is neither a file nor a folder`)
  const files: LocalFile[] = []
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true })
    for (const entry of entries) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) files.push({ path, relativePath: relative(root, path).split(sep).join('/'), size: (await stat(path)).size })
      else onSkip(path, entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file')
    }
  }
  await walk(root)
  files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0))
  return { files, isFolder: true }
}

/**
 * Runs `task` over `items` with at most `limit` at once, in order of start; stops starting new ones once
 * `shouldStop()` says so. Resolves when every started task settled, with the errors in item order.
 *
 * @example
 * ```ts
 * const failures = await eachLimited(files, 4, () => signal.aborted, upload)
 * ```
 */
export async function eachLimited<T>(items: readonly T[], limit: number, shouldStop: () => boolean, task: (item: T) => Promise<void>): Promise<Array<{ item: T; error: unknown }>> {
  const failures: Array<{ item: T; error: unknown; index: number }> = []
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length && !shouldStop()) {
      const index = next++
      const item = items[index]!
      try {
        await task(item)
      } catch (error) {
        failures.push({ item, error, index })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return failures.sort((a, b) => a.index - b.index).map(({ item, error }) => ({ item, error }))
}
