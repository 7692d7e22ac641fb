import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'

/** The mode of every folder botshelf makes for data: only its owner may list or enter it (decision 1461). */
export const PRIVATE_FOLDER_MODE = 0o700
/** The mode of every file botshelf writes data to: only its owner may read or write it (decision 1461). */
export const PRIVATE_FILE_MODE = 0o600

/**
 * Makes a folder (and its missing parents) with mode `0700`, whatever the process's umask: each folder it creates is
 * set with `chmod`, since `mkdir` applies the umask. Folders that already exist keep their mode (an operator's choice;
 * {@link openFolderWarning} says when it is too open).
 *
 * @example
 * ```ts
 * makePrivateFolder('/var/lib/botshelf/content/files/tmp')
 * ```
 */
export function makePrivateFolder(path: string): void {
  const missing: string[] = []
  for (let at = path; !existsSync(at); at = dirname(at)) {
    missing.push(at)
    if (dirname(at) === at) break
  }
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE })
  for (const made of missing) chmodSync(made, PRIVATE_FOLDER_MODE)
}

/**
 * Creates an empty file with mode `0600` when it is missing, whatever the umask. SQLite then makes its `-wal` and
 * `-shm` files with the database file's mode, so the database, its log and its shared memory all stay private.
 *
 * @example
 * ```ts
 * createPrivateFile(folder.databaseFile) // before SQLite opens it
 * ```
 */
export function createPrivateFile(path: string): void {
  let fd: number
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw error
  }
  try {
    chmodSync(path, PRIVATE_FILE_MODE)
  } finally {
    closeSync(fd)
  }
}

/**
 * A warning with the fix when an existing data folder lets other users in (any group or other permission bit), or
 * `undefined` when it is private or missing. Made before the permissions of new folders and files were tightened,
 * such a folder lets any local user copy the database and its signing key.
 *
 * @example
 * ```ts
 * const warning = openFolderWarning('./.botshelf')
 * if (warning) logger.warn(warning)
 * ```
 */
export function openFolderWarning(path: string): string | undefined {
  let mode: number
  try {
    mode = statSync(path).mode & 0o777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if ((mode & 0o077) === 0) return undefined
  return `The data folder ${path} is open to other local users (mode ${mode.toString(8).padStart(4, '0')}): they can copy the database and its signing key. Fix it with: chmod -R go-rwx ${JSON.stringify(path)}`
}
