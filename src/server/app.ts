import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { openDatabase } from '../store/sqlite/open-database.js'
import { runMigrations, type Migration } from '../store/sqlite/migrations.js'
import { authMigrations } from '../store/sqlite/auth-migrations.js'
import {
  AuthStore,
  type BotRecord,
  type CreateTokenInput,
  type CreatedToken,
  type TokenRecord,
} from '../store/sqlite/auth-store.js'
import { authMiddleware } from './auth/middleware.js'
import type { AppEnv, AppServices, ServiceFeature } from './env.js'
import { handleError } from './http/error-handler.js'
import { createJsonLogger, type Logger } from './http/logger.js'
import { notFoundHandler } from './http/not-found.js'
import { requestContext } from './http/request-context.js'
import { registeredOperations } from './http/register-operation.js'
import { openApiRoutes } from './openapi/route.js'
import { describedRawRoutes } from './openapi/raw-route.js'
import { metaRoutes } from './http/meta-routes.js'
import { packageVersion } from './package-version.js'
import { loadSigningKey } from './signing-key.js'
import { lockDataDir, type DataLock } from './data-lock.js'
import { filesFeature } from './files/feature.js'
import { tablesFeature } from './tables/feature.js'

/**
 * The features the service ships: the Files API and the Tables API.
 *
 * @example
 * ```ts
 * createApp({ memory: true, features: [...defaultFeatures, myFeature] })
 * ```
 */
export const defaultFeatures: ReadonlyArray<ServiceFeature> = [filesFeature, tablesFeature]

/** Options of `createApp`. Give either `dataDir` or `memory: true`. */
export interface AppOptions {
  /**
   * The data folder: `botshelf.db` (SQLite, WAL), `content/` (file content) and `signing-key`. Created if
   * missing.
   *
   * @example
   * ```ts
   * createApp({ dataDir: './.botshelf' })
   * ```
   */
  dataDir?: string
  /**
   * In-memory SQLite and a temp content folder removed on `close()`: for tests and throwaway servers.
   *
   * @example
   * ```ts
   * createApp({ memory: true })
   * ```
   */
  memory?: boolean
  /**
   * Base of the absolute URLs the service returns (`uploadUrl`, `url`); default: the request's origin.
   *
   * @example
   * ```ts
   * createApp({ dataDir: '/var/lib/botshelf', publicUrl: 'https://files.example.com' })
   * ```
   */
  publicUrl?: string
  /**
   * The clock; tests pass a fake one. Default: `() => new Date()`.
   *
   * @example
   * ```ts
   * let t = new Date('2026-01-01T00:00:00Z'); createApp({ memory: true, now: () => t })
   * ```
   */
  now?: () => Date
  /**
   * Where the request log and errors go; default: JSON lines on stdout.
   *
   * @example
   * ```ts
   * createApp({ memory: true, logger: silentLogger })
   * ```
   */
  logger?: Logger
  /**
   * Validate every operation response against its schema (a mismatch is a logged 500). Tests turn it on.
   *
   * @example
   * ```ts
   * createApp({ memory: true, checkResponses: true })
   * ```
   */
  checkResponses?: boolean
  /**
   * Origins allowed to call the service from a browser (CORS); `['*']` allows any. Default: none (no CORS
   * headers, browsers on other origins are refused). Preflight requests are answered before auth.
   *
   * @example
   * ```ts
   * createApp({ dataDir: './.botshelf', corsOrigins: ['http://localhost:5173'] })
   * ```
   */
  corsOrigins?: ReadonlyArray<string>
  /**
   * The features to mount; default: `defaultFeatures` (files, tables).
   *
   * @example
   * ```ts
   * createApp({ memory: true, features: [filesFeature] })
   * ```
   */
  features?: ReadonlyArray<ServiceFeature>
}

/** Result of `admin.bootstrap()`. */
export interface BootstrapResult {
  /** True on the first start: the workspace, the bot and `token` were just created. */
  created: boolean
  bot: BotRecord
  /** The bot token, only when `created` (it is never shown again). */
  token?: CreatedToken
}

/**
 * The management surface for embedding, tests and the CLI: bots and tokens without HTTP.
 *
 * @example
 * ```ts
 * const bot = app.admin.createBot({ name: 'support' })
 * const { id, token } = app.admin.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' })
 * app.admin.revokeToken(id)
 * ```
 */
export interface AppAdmin {
  /**
   * First start: creates the workspace, a bot and a bot token; later starts: returns the first bot (no token).
   *
   * @example
   * ```ts
   * const { created, bot, token } = app.admin.bootstrap()
   * if (created) console.log(`bot ${bot.id}, token ${token!.token}`)
   * ```
   */
  bootstrap(): BootstrapResult
  /**
   * Creates a bot (a UUID id unless given).
   *
   * @example
   * ```ts
   * const bot = app.admin.createBot({ name: 'support' })
   * ```
   */
  createBot(input?: { name?: string; id?: string }): BotRecord
  /**
   * Every bot, oldest first.
   *
   * @example
   * ```ts
   * app.admin.listBots().map((b) => b.id)
   * ```
   */
  listBots(): BotRecord[]
  /**
   * Creates a token bound to one bot (`botId`), or with `workspace: true` a member token that reaches every bot
   * of the workspace (the caller names the bot in `x-bot-id`; decision 0208). The record's `scope` says which.
   * The secret (`token`) is returned once and stored only as a hash. Throws `AuthStoreError` (`unknown_bot`,
   * `invalid_role`, `invalid_integration`, `invalid_scope`) on bad input.
   *
   * @example
   * ```ts
   * const { token } = app.admin.createToken({ botId: bot.id, role: 'viewer' })
   * const personal = app.admin.createToken({ workspace: true, role: 'developer' }) // personal.scope === 'workspace'
   * ```
   */
  createToken(input: CreateTokenInput): CreatedToken
  /**
   * Tokens without their secrets, each with its `scope` (`bot` or `workspace`); revoked ones too unless
   * `activeOnly`. `botId` keeps the tokens that reach that bot: bound to it, or workspace-wide.
   *
   * @example
   * ```ts
   * app.admin.listTokens({ botId: bot.id, activeOnly: true })
   * ```
   */
  listTokens(filter?: { botId?: string; activeOnly?: boolean }): TokenRecord[]
  /**
   * Revokes a token by id; it stops working at once. Throws `AuthStoreError('unknown_token')` for an unknown id.
   *
   * @example
   * ```ts
   * app.admin.revokeToken('tok_0a1b...')
   * ```
   */
  revokeToken(id: string): TokenRecord
}

/**
 * A running app: a fetch handler plus its admin surface.
 *
 * @example
 * ```ts
 * const app: BotshelfApp = createApp({ memory: true })
 * const res = await app.fetch(new Request('http://local/v1/openapi.json'))
 * await app.close()
 * ```
 */
export interface BotshelfApp {
  /** The Hono fetch handler: `Request` in, `Response` out. */
  fetch(request: Request): Promise<Response>
  readonly admin: AppAdmin
  readonly services: AppServices
  /** The Hono app itself (its route table is `app.hono.routes`); to serve it, prefer `fetch`. */
  readonly hono: Hono<AppEnv>
  /** Stops background tasks, closes the database, releases the data folder lock; removes the temp folder of an in-memory app. */
  close(): Promise<void>
}

/**
 * Builds the service: opens (or creates) the store, runs every migration, mounts the routes, and returns a
 * fetch handler with an admin surface.
 *
 * @example
 * ```ts
 * const app = createApp({ memory: true })
 * const bot = app.admin.createBot()
 * const { token } = app.admin.createToken({ botId: bot.id, role: 'bot' })
 * const res = await app.fetch(new Request('http://local/v1/files', { headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id } }))
 * await app.close()
 * ```
 */
export function createApp(options: AppOptions = {}): BotshelfApp {
  if (options.dataDir !== undefined && options.memory) throw new Error('createApp: give either dataDir or memory: true, not both')
  if (options.dataDir === undefined && !options.memory) throw new Error('createApp: give a dataDir (for example "./.botshelf") or memory: true')
  const features = options.features ?? defaultFeatures

  const dataDir = options.dataDir === undefined ? null : resolve(options.dataDir)
  let contentDir: string
  let lock: DataLock | undefined
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true })
    lock = lockDataDir(dataDir)
    contentDir = join(dataDir, 'content')
    mkdirSync(contentDir, { recursive: true })
  } else {
    contentDir = mkdtempSync(join(tmpdir(), 'botshelf-content-'))
  }
  let db: ReturnType<typeof openDatabase>
  try {
    db = openDatabase(dataDir ? join(dataDir, 'botshelf.db') : ':memory:')
    const migrations: Migration[] = [...authMigrations, ...features.flatMap((feature) => feature.migrations)]
    try {
      runMigrations(db, migrations)
    } catch (error) {
      db.close()
      throw error
    }
  } catch (error) {
    lock?.release()
    throw error
  }

  const now = options.now ?? (() => new Date())
  const services: AppServices = {
    db,
    dataDir,
    contentDir,
    now,
    signingKey: loadSigningKey(dataDir),
    ...(options.publicUrl !== undefined ? { publicUrl: options.publicUrl.replace(/\/+$/, '') } : {}),
    logger: options.logger ?? createJsonLogger(),
    checkResponses: options.checkResponses ?? false,
  }
  const store = new AuthStore(db, now)

  const hono = new Hono<AppEnv>()
  hono.onError(handleError)
  hono.notFound(notFoundHandler(hono))
  hono.use('*', requestContext(services))
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    const origins = [...options.corsOrigins]
    hono.use(
      '*',
      cors({
        origin: origins.includes('*') ? '*' : origins,
        allowMethods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'],
        exposeHeaders: ['x-request-id', 'content-length', 'content-range', 'content-disposition', 'etag', 'accept-ranges'],
        maxAge: 600,
      }),
    )
  }
  const meta = metaRoutes(packageVersion())
  const openApi = openApiRoutes(
    () => features.flatMap((feature) => (feature.routes ? registeredOperations(feature.routes) : [])),
    () => [meta, openApi, ...features.flatMap((feature) => (feature.publicRoutes ? [feature.publicRoutes] : []))].flatMap(describedRawRoutes),
  )
  hono.route('/', meta)
  hono.route('/', openApi)
  for (const feature of features) if (feature.publicRoutes) hono.route('/', feature.publicRoutes)
  hono.use('/v1/*', authMiddleware(store))
  for (const feature of features) if (feature.routes) hono.route('/', feature.routes)

  const stops: Array<() => void | Promise<void>> = []
  for (const feature of features) {
    const started = feature.start?.(services)
    if (started) stops.push(() => started.stop())
  }

  const admin: AppAdmin = {
    bootstrap() {
      const existing = store.listBots()[0]
      if (existing) return { created: false, bot: existing }
      const bot = store.createBot({ name: 'my-bot' })
      const token = store.createToken({ botId: bot.id, role: 'bot', label: 'created on first start' })
      return { created: true, bot, token }
    },
    createBot: (input) => store.createBot(input),
    listBots: () => store.listBots(),
    createToken: (input) => store.createToken(input),
    listTokens: (filter) => store.listTokens(filter),
    revokeToken: (id) => store.revokeToken(id),
  }

  let closed: Promise<void> | undefined
  return {
    fetch: async (request) => hono.fetch(request),
    admin,
    services,
    hono,
    close() {
      closed ??= (async () => {
        for (const stop of stops) await stop()
        db.close()
        lock?.release()
        if (!dataDir) rmSync(contentDir, { recursive: true, force: true })
      })()
      return closed
    },
  }
}
