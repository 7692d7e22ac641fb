import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { makePrivateFolder } from './private-modes.js'

/**
 * The embedded mode's data folder, in one place for the server, the SQLite backend and the CLI:
 * `botshelf.db` (SQLite, WAL), `content/` (file content), `botshelf.lock` (keeps a second server out) and, in
 * folders made before the key moved into the database, `signing-key`.
 */
export interface DataFolder {
  /** The absolute path of the folder. */
  readonly root: string
  /** `<root>/botshelf.db`. */
  readonly databaseFile: string
  /** `<root>/content`: each feature takes a subfolder (files use `content/files`). */
  readonly contentDir: string
  /** `<root>/signing-key`, the key file of older folders (read once, then the database keeps the key). */
  readonly legacySigningKeyFile: string
  /** `<root>/botshelf.lock`. */
  readonly lockFile: string
}

/**
 * The paths of a data folder (nothing is created).
 *
 * @example
 * ```ts
 * const folder = dataFolder('./.botshelf')
 * folder.databaseFile // '/home/you/bot/.botshelf/botshelf.db'
 * ```
 */
export function dataFolder(dir: string): DataFolder {
  const root = resolve(dir)
  return {
    root,
    databaseFile: join(root, 'botshelf.db'),
    contentDir: join(root, 'content'),
    legacySigningKeyFile: join(root, 'signing-key'),
    lockFile: join(root, 'botshelf.lock'),
  }
}

/**
 * Creates the folder and its content folder when missing, both `0700` whatever the umask (decision 1461). An existing
 * folder keeps its mode.
 *
 * @example
 * ```ts
 * ensureDataFolder(dataFolder('./.botshelf'))
 * ```
 */
export function ensureDataFolder(folder: DataFolder): void {
  makePrivateFolder(folder.contentDir)
}

/**
 * Whether a server has run in this folder (its database exists): the CLI refuses to manage a folder without one.
 *
 * @example
 * ```ts
 * if (!hasDatabase(dataFolder(dir))) throw new Error('start "botshelf serve" once first')
 * ```
 */
export function hasDatabase(folder: DataFolder): boolean {
  return existsSync(folder.databaseFile)
}

/**
 * The signing key of a folder made before the key moved into the database, or `undefined`. A corrupt file is an
 * error that says what to do.
 *
 * @example
 * ```ts
 * const seed = readLegacySigningKey(folder) // then: await backend.auth.signingKey(seed)
 * ```
 */
export function readLegacySigningKey(folder: DataFolder): Buffer | undefined {
  let text: string
  try {
    text = readFileSync(folder.legacySigningKeyFile, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex')
  throw new Error(
    `The signing key file ${folder.legacySigningKeyFile} is corrupt (expected 64 hex characters); it cannot be adopted, and the database keeps the key instead`,
  )
}
