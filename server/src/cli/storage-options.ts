import { BlobConfigError } from '../blobs/errors.js'
import type { S3BlobStore } from '../blobs/s3/s3-blob-store.js'
import { blobStoreOptionsFrom, openS3BlobStore, type BlobConfigSources } from '../blobs/s3/s3-options.js'
import { dataFolder, hasDatabase } from '../platform/index.js'
import type { Backend } from '../store/index.js'
import { openBackend, type PostgresBackend } from '../store/open-backend.js'
import { UsageError } from './io.js'
import { settingArgOptions } from './settings/arg-options.js'
import { serveSettings } from './settings/serve-settings.js'

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
export const storageOptionTable = settingArgOptions(serveSettings.filter((setting) => ['data', 'database', 'blobs'].includes(setting.flag))) as {
  data: { type: 'string' }
  database: { type: 'string' }
  blobs: { type: 'string' }
}

/**
 * Where file content goes: the data folder's `content/`, or an S3 bucket (parsed from `--blobs` /
 * `BOTSHELF_BLOBS_URL` and `BOTSHELF_S3_*` in {@link resolveBlobs}).
 */
export type BlobsSetting = { kind: 'data-folder' } | { kind: 's3'; url: string; sources: BlobConfigSources }

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
export function resolveStorage(values: { data?: string; database?: string; blobs?: string }, env: NodeJS.ProcessEnv = process.env): StorageSettings {
  const dataDir = values.data ?? DEFAULT_DATA_DIR
  const fromEnv = env[DATABASE_URL_VARIABLE]
  let databaseUrl: string | undefined
  let databaseSource: StorageSettings['databaseSource']
  if (values.database !== undefined) [databaseUrl, databaseSource] = [values.database, '--database']
  else if (fromEnv !== undefined && fromEnv !== '') [databaseUrl, databaseSource] = [fromEnv, DATABASE_URL_VARIABLE]
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) {
    throw new UsageError(`${databaseSource} must be a PostgreSQL URL like postgres://user:password@host:5432/botshelf, received ${JSON.stringify(hidePassword(databaseUrl))}`)
  }
  const blobs = resolveBlobs(values, env)
  if (blobs.kind === 's3' && databaseUrl === undefined) {
    // The embedded backend keeps content beside its database; S3 content goes with a shared database.
    throw new UsageError(
      `${values.blobs !== undefined ? '--blobs' : 'BOTSHELF_BLOBS_URL'} (content in ${blobs.url}) needs a PostgreSQL database: pass --database URL or set ${DATABASE_URL_VARIABLE}; the embedded mode keeps content in its data folder`,
    )
  }
  return {
    dataDir,
    ...(databaseUrl !== undefined ? { databaseUrl, databaseSource } : {}),
    blobs,
  }
}

/**
 * Where file content goes: S3 when `--blobs URL` or `BOTSHELF_BLOBS_URL` names a bucket (the flag wins; the
 * `BOTSHELF_S3_*` and `AWS_*` variables complete it), else the data folder. A setting that does not parse is a
 * `UsageError` (exit 2) naming it.
 *
 * @example
 * ```ts
 * resolveBlobs({ blobs: 's3://content/botshelf' }, { BOTSHELF_S3_ENDPOINT: 'http://127.0.0.1:4569' })
 * // { kind: 's3', url: 's3://content/botshelf', sources: { flag: 's3://content/botshelf', env: { ... } } }
 * ```
 */
export function resolveBlobs(values: { blobs?: string }, env: NodeJS.ProcessEnv): BlobsSetting {
  try {
    const sources: BlobConfigSources = { ...(values.blobs !== undefined ? { flag: values.blobs } : {}), env }
    const options = blobStoreOptionsFrom(sources)
    return options ? { kind: 's3', url: `s3://${options.bucket}${options.prefix ? `/${options.prefix.replace(/\/$/, '')}` : ''}`, sources } : { kind: 'data-folder' }
  } catch (error) {
    if (error instanceof BlobConfigError) throw new UsageError(error.message)
    throw error
  }
}

/**
 * The blob store a setting names (the bucket checked), or `undefined` for the data folder's own (the backend's
 * default).
 *
 * @example
 * ```ts
 * await openBlobs({ kind: 'data-folder' }) // undefined
 * ```
 */
export async function openBlobs(setting: BlobsSetting): Promise<S3BlobStore | undefined> {
  if (setting.kind === 'data-folder') return undefined
  try {
    const options = blobStoreOptionsFrom(setting.sources)
    if (!options) throw new UsageError(`${setting.url}: no longer configured`)
    return await openS3BlobStore(options)
  } catch (error) {
    if (error instanceof BlobConfigError) throw new UsageError(error.message)
    throw error
  }
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
  const content = settings.blobs.kind === 's3' ? settings.blobs.url : dataFolder(settings.dataDir).contentDir
  return `${hidePassword(settings.databaseUrl)} (file content in ${content})`
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
  const blobs = await openBlobs(settings.blobs)
  try {
    const backend = await openBackend({
      databaseUrl: settings.databaseUrl,
      dataDir: settings.dataDir,
      ...(blobs ? { blobs } : {}),
      ...(options.migrate !== undefined ? { migrate: options.migrate } : {}),
    })
    if (!blobs) return backend
    // The S3 client's sockets go with the backend.
    const closeBackend = backend.close.bind(backend)
    return Object.assign(backend, {
      async close() {
        try {
          await closeBackend()
        } finally {
          blobs.close()
        }
      },
    })
  } catch (error) {
    blobs?.close()
    throw error
  }
}
