import type { BlobStore } from '../blobs/index.js'
import { dataFolder, hasDatabase } from '../data-folder/index.js'
import type { Backend } from '../store/index.js'
import { openBackend, type PostgresBackend } from '../store/open-backend.js'
import { UsageError } from './io.js'

/** The data folder when neither `--data` nor anything else names one. */
export const DEFAULT_DATA_DIR = './.botshelf'

/** The variable that names the PostgreSQL database when `--database` is absent. */
export const DATABASE_URL_VARIABLE = 'BOTSHELF_DATABASE_URL'

/**
 * The command-line options every command that touches data takes (for `parseCommandArgs`).
 *
 * @example
 * ```ts
 * parseCommandArgs(args, { ...storageOptionTable, port: { type: 'string' } }, 'serve')
 * ```
 */
export const storageOptionTable = {
  data: { type: 'string' },
  database: { type: 'string' },
} as const

/**
 * Where file content goes. Today the data folder's `content/`; the S3 store adds its own kind here (parsed from
 * `--blobs` / `BOTSHELF_BLOBS_URL` and `BOTSHELF_S3_*` in {@link resolveBlobs}).
 */
export type BlobsSetting = { kind: 'data-folder' }

/** Where a command's data lives, resolved from flags and environment variables. */
export interface StorageSettings {
  /** The data folder: everything on the embedded backend; file content (and nothing else) with a database. */
  dataDir: string
  /** The PostgreSQL database of metadata, rows and jobs, or `undefined` for the embedded SQLite database. */
  databaseUrl?: string
  /** Where `databaseUrl` came from, for messages. */
  databaseSource?: '--database' | typeof DATABASE_URL_VARIABLE
  /** Where file content goes. */
  blobs: BlobsSetting
}

/**
 * Resolves where a command's data lives: `--database URL`, else `BOTSHELF_DATABASE_URL`, names a PostgreSQL
 * database that then holds everything it covers (metadata, rows, jobs, the signing key), while file content
 * stays in the data folder (`--data`, default `./.botshelf`) unless a blob store is configured. Without a URL,
 * everything is in the data folder. Flags win over variables. A URL that is not `postgres://` or
 * `postgresql://` is refused with a `UsageError` naming its source.
 *
 * @example
 * ```ts
 * resolveStorage({ data: './.botshelf' }, { BOTSHELF_DATABASE_URL: 'postgres://db/botshelf' })
 * // { dataDir: './.botshelf', databaseUrl: 'postgres://db/botshelf', databaseSource: 'BOTSHELF_DATABASE_URL', blobs: { kind: 'data-folder' } }
 * ```
 */
export function resolveStorage(values: { data?: string; database?: string }, env: NodeJS.ProcessEnv = process.env): StorageSettings {
  const dataDir = values.data ?? DEFAULT_DATA_DIR
  const fromEnv = env[DATABASE_URL_VARIABLE]
  let databaseUrl: string | undefined
  let databaseSource: StorageSettings['databaseSource']
  if (values.database !== undefined) [databaseUrl, databaseSource] = [values.database, '--database']
  else if (fromEnv !== undefined && fromEnv !== '') [databaseUrl, databaseSource] = [fromEnv, DATABASE_URL_VARIABLE]
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) {
    throw new UsageError(`${databaseSource} must be a PostgreSQL URL like postgres://user:password@host:5432/botshelf, received ${JSON.stringify(hidePassword(databaseUrl))}`)
  }
  return {
    dataDir,
    ...(databaseUrl !== undefined ? { databaseUrl, databaseSource } : {}),
    blobs: resolveBlobs(values, env),
  }
}

/**
 * Where file content goes: the data folder for now. The S3 blob store plugs its flag and variables in here.
 *
 * @example
 * ```ts
 * resolveBlobs({}, process.env) // { kind: 'data-folder' }
 * ```
 */
export function resolveBlobs(_values: Record<string, unknown>, _env: NodeJS.ProcessEnv): BlobsSetting {
  return { kind: 'data-folder' }
}

/**
 * The blob store a setting names, or `undefined` for the data folder's own (the backend's default).
 *
 * @example
 * ```ts
 * openBlobs({ kind: 'data-folder' }) // undefined
 * ```
 */
export function openBlobs(_setting: BlobsSetting): BlobStore | undefined {
  return undefined
}

/**
 * A line naming where data lives, for banners and messages (the password of a URL hidden).
 *
 * @example
 * ```ts
 * describeStorage(settings) // 'postgres://app:***@db:5432/botshelf (content in ./.botshelf)'
 * ```
 */
export function describeStorage(settings: StorageSettings): string {
  if (settings.databaseUrl === undefined) return settings.dataDir
  return `${hidePassword(settings.databaseUrl)} (file content in ${dataFolder(settings.dataDir).contentDir})`
}

function hidePassword(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^@]*@/, '$1:***@')
}

/**
 * Opens the backend of the management commands (`token`, `bot`): without the data folder's lock (they work
 * beside a running server). Refuses storage no server has prepared: a data folder without its database, or a
 * database whose migrations have not run (`botshelf migrate` or a first `serve` does that).
 *
 * @example
 * ```ts
 * const backend = await openStorageForManagement(resolveStorage(values))
 * try { await backend.auth.listBots() } finally { await backend.close() }
 * ```
 */
export async function openStorageForManagement(settings: StorageSettings): Promise<Backend> {
  if (settings.databaseUrl === undefined) {
    const folder = dataFolder(settings.dataDir)
    if (!hasDatabase(folder)) {
      throw new UsageError(
        `No botshelf data folder at ${folder.root} (missing botshelf.db). Start "botshelf serve --data ${settings.dataDir}" once first, or pass --data (or --database).`,
      )
    }
    return openBackend({ dataDir: folder.root, lock: false })
  }
  const backend = await openStorage(settings, { migrate: false })
  const pending = await (backend as PostgresBackend).pendingMigrations().catch(async (error: unknown) => {
    await backend.close()
    throw error
  })
  if (pending.length > 0) {
    await backend.close()
    throw new UsageError(
      `The database ${hidePassword(settings.databaseUrl)} is not prepared for botshelf (${pending.length} migrations pending). ` +
        'Run "botshelf migrate --database URL" or start "botshelf serve" once first.',
    )
  }
  return backend
}

/**
 * Opens the backend the settings name: PostgreSQL with content in the blob store or the data folder, or the
 * embedded one in the data folder (locked against a second server).
 *
 * @example
 * ```ts
 * const backend = await openStorage(resolveStorage({ database: 'postgres://db/botshelf' }))
 * ```
 */
export async function openStorage(settings: StorageSettings, options: { migrate?: boolean } = {}): Promise<Backend & { readonly dataDir: string | null }> {
  if (settings.databaseUrl === undefined) return openBackend({ dataDir: settings.dataDir })
  const blobs = openBlobs(settings.blobs)
  return openBackend({
    databaseUrl: settings.databaseUrl,
    dataDir: settings.dataDir,
    ...(blobs ? { blobs } : {}),
    ...(options.migrate !== undefined ? { migrate: options.migrate } : {}),
  })
}
