import type { IncomingMessage, ServerResponse } from 'node:http'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { dataFolder, readLegacySigningKey } from '../platform/index.js'
import { JobRunner } from '../jobs/index.js'
import { fileEvent, WebhookDelivery, webhooksRoutes, type WebhookOptions } from '../webhooks/index.js'
import type { Backend, BotRecord, CreateTokenInput, CreatedToken, TokenRecord } from '../store/index.js'
import { openBackend } from '../store/open-backend.js'
import { authMiddleware } from './auth/middleware.js'
import { bodyDeadline, checkTimeout, defaultTimeouts } from './connections/index.js'
import type { AppEnv, AppServices, RequestConnection, ServiceFeature } from './env.js'
import { FilesService } from '../files/files-service.js'
import { handleError } from './error-handler.js'
import { createJsonLogger, toLogger, writeToStdout, type Logger, type LoggerLike } from './logger.js'
import { notFoundHandler } from './not-found.js'
import { requestContext } from './request-context.js'
import { directOperations, registeredOperations } from './register-operation.js'
import { createDirectLane } from './direct-lane.js'
import { openApiRoutes } from './openapi/route.js'
import { describedRawRoutes } from './openapi/raw-route.js'
import { rawRouteMatcher } from './openapi/raw-route-match.js'
import { createRateLimiter, resolveRateLimits, type RateLimitOptions, type ResolvedRateLimits } from './rate-limit/index.js'
import { metaRoutes } from './meta-routes.js'
import { packageVersion } from './package-version.js'
import { createFilesFeature, filesFeature } from '../files/feature.js'
import type { IndexingOptions } from '../search/indexing/index.js'
import { metricsRoutes, ServiceMetrics } from '../metrics/index.js'
import { measureWorkspaceUsage, type StorageQuotas, type WorkspaceUsage } from '../usage/index.js'
import { importLimitsOf, type ImportLimits } from '../tables/import-limits.js'
import { createTablesFeature, tablesFeature } from '../tables/feature.js'
import { adminRoutes, SignInCodes, type IssuedSignInCode } from '../admin/index.js'
import { consoleRoutes, findConsoleFolder } from '../console/index.js'
import type { Clock } from 'botshelf/api'
import { createOpenAiCompatibleLanguageModel, languageModelOptionsFromEnv, unconfiguredLanguageModel, type LanguageModel } from '../language-model/index.js'

/**
 * The key file of a data folder made before the key moved into the database, to adopt on first start. Once the
 * database holds a key the file no longer matters, so a corrupt one is reported and ignored rather than fatal.
 */
function legacySigningKey(dataDir: string | null, logger: Logger): Buffer | undefined {
  if (!dataDir) return undefined
  try {
    return readLegacySigningKey(dataFolder(dataDir))
  } catch (error) {
    logger.log('warn', 'ignored an unreadable signing-key file: the database keeps the signing key', { error: String(error) })
    return undefined
  }
}

/**
 * The features the service ships: the Files API and the Tables API.
 *
 * @example
 * ```ts
 * createApp({ memory: true, features: [...defaultFeatures, myFeature] })
 * ```
 */
export const defaultFeatures: ReadonlyArray<ServiceFeature> = [filesFeature, tablesFeature]

/** Files and tables as `createApp`'s options configure them: one embedder for file and table search, the expiry sweep's interval. */
function configuredFeatures(indexing: IndexingOptions | undefined, expirySweepIntervalMs: number | undefined): ServiceFeature[] {
  const filesOptions = {
    ...(indexing ? { indexing } : {}),
    ...(expirySweepIntervalMs !== undefined ? { expirySweepIntervalMs } : {}),
  }
  if (!indexing) return [createFilesFeature(filesOptions), tablesFeature]
  const search = {
    ...(indexing.embedder !== undefined ? { embedder: indexing.embedder } : {}),
    ...(indexing.embedBatchSize !== undefined ? { embedBatchSize: indexing.embedBatchSize } : {}),
  }
  return [createFilesFeature(filesOptions), createTablesFeature({ search })]
}

/** Options of `createApp`. Give a `backend`, or one of its shortcuts: `dataDir` or `memory: true`. */
export interface AppOptions {
  /**
   * The storage backend (every port, the blobs, transactions). The caller opened it and closes it after
   * `app.close()`. Without it, `dataDir` or `memory` opens the embedded SQLite backend, which the app then owns.
   *
   * @example
   * ```ts
   * const backend = await openSqliteBackend({ dataDir: './.botshelf' })
   * const app = await createApp({ backend })
   * ```
   */
  backend?: Backend
  /**
   * Shortcut for the embedded backend in a data folder: `botshelf.db` (SQLite, WAL) and `content/` (file
   * content). Created if missing, locked against a second server.
   *
   * @example
   * ```ts
   * await createApp({ dataDir: './.botshelf' })
   * ```
   */
  dataDir?: string
  /**
   * In-memory SQLite and a temp content folder removed on `close()`: for tests and throwaway servers.
   *
   * @example
   * ```ts
   * await createApp({ memory: true })
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
   * The clock of the backend the `dataDir`/`memory` shortcut opens; tests pass a fake one. Default: the wall
   * clock. With `backend`, give the clock to the backend instead.
   *
   * @example
   * ```ts
   * let t = new Date('2026-01-01T00:00:00Z'); await createApp({ memory: true, now: () => t })
   * ```
   */
  now?: Clock
  /**
   * Where the request log and errors go; default: JSON lines on stdout.
   *
   * @example
   * ```ts
   * createApp({ memory: true, logger: silentLogger })
   * ```
   */
  logger?: LoggerLike
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
  /**
   * How the default files feature indexes documents, and which embedder the tables feature embeds rows with
   * (ignored when `features` is given: pass `createFilesFeature({ indexing })` and `createTablesFeature({ search })`
   * there). Default: botshelf's extractor and the embedder the environment names (`BOTSHELF_EMBEDDINGS_URL`), else
   * the offline default; `embedder: null` for lexical search only.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, indexing: { embedder: createOpenAiCompatibleEmbedder({ url, model }) } })
   * ```
   */
  indexing?: IndexingOptions
  /**
   * The language model of AI columns (and of anything else that asks one). Default: the OpenAI-compatible chat API
   * the environment names (`BOTSHELF_LLM_URL`, `BOTSHELF_LLM_MODEL`, `BOTSHELF_LLM_API_KEY`), else none: AI
   * computations then fail at once with a reason naming the setting.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, languageModel: createOpenAiCompatibleLanguageModel({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' }) })
   * ```
   */
  languageModel?: LanguageModel
  /**
   * How often the default files feature deletes expired files, in milliseconds (default 60 000; ignored when
   * `features` is given: pass `createFilesFeature({ expirySweepIntervalMs })` there).
   *
   * @example
   * ```ts
   * await createApp({ memory: true, expirySweepIntervalMs: 10_000 })
   * ```
   */
  expirySweepIntervalMs?: number
  /**
   * Storage limits of the workspace: an upload or an indexing that would pass one is refused with the reason
   * (docs/search.md "Accounting and quotas"). Default: none.
   *
   * @example
   * ```ts
   * await createApp({ dataDir: './.botshelf', quotas: { fileStorageBytes: 10 * 1024 ** 3, vectorStorageBytes: 1024 ** 3 } })
   * ```
   */
  quotas?: StorageQuotas
  /**
   * The bounds of a table import (decision 1463): `maxRatio` (decompressed bytes per gzip byte, default 100),
   * `maxBytes` (file and decompressed content, default 4 GiB), `tableRows` (rows a table may hold after an import,
   * default 1,000,000), `botRows` (rows all of a bot's tables may hold, default 5,000,000), `tableBytes` (bytes a
   * table's rows may store, default 1 GiB) and `botBytes` (bytes all of a bot's tables may store, default 5 GiB). An
   * import past one fails, naming the limit, before any row is written.
   *
   * @example
   * ```ts
   * await createApp({ dataDir: './.botshelf', importLimits: { tableRows: 100_000 } })
   * ```
   */
  importLimits?: Partial<ImportLimits>
  /**
   * The background job runner: how many jobs run at once (default 2), how often it looks for due jobs when
   * nothing woke it (default 1000 ms), and the lease of a claimed job (default 30 000 ms: after a crash, another
   * process takes the job over once it passes).
   *
   * @example
   * ```ts
   * await createApp({ memory: true, jobs: { concurrency: 4, pollMs: 250, leaseMs: 10_000 } })
   * ```
   */
  jobs?: { concurrency?: number; pollMs?: number; leaseMs?: number }
  /**
   * Storage event delivery (docs/storage-events.md): the retry schedule, the hosts subscriptions may call, the
   * endpoint timeout, how many deliveries run at once. Defaults: `5s,30s,2m,10m,30m,1h,3h,6h,12h,24h`, any host,
   * 10 s, 16.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, webhooks: { retries: [10, 10], pollMs: 50 } })
   * ```
   */
  webhooks?: WebhookOptions
  /**
   * Rate limits (docs/server.md, "Rate limiting"): a token bucket per token on the authenticated `/v1` routes
   * (default 100 requests a second, bursts of 500) and per client IP address on the routes without a token
   * (default 200 a second, bursts of 1000). A refused request is answered 429 `RateLimited` with `Retry-After`.
   * `false` or `'off'` switches it off; a string is read like `botshelf serve --rate-limit`.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, rateLimit: { token: { perSecond: 20, burst: 100 } } })
   * await createApp({ memory: true, rateLimit: '50/s,burst=200,ip=off' })
   * await createApp({ memory: true, rateLimit: false })
   * ```
   */
  rateLimit?: RateLimitOptions | false | string
  /**
   * How long the body of a request may take to arrive once its headers are in, in ms, for every request but
   * uploads (which stream their body and keep the server's request timeout). Past it: 408 `OperationTimeout`
   * and the connection is closed. Default 60 000; 0 switches it off.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, bodyTimeoutMs: 30_000 })
   * ```
   */
  bodyTimeoutMs?: number
  /**
   * Prometheus metrics (docs/operations.md): `'route'` (default) serves `GET /metrics` on the service's port,
   * `'collect'` keeps them on `app.services.metrics` without a route (`createServer({ metricsPort })` serves them
   * on a port of their own), `false` switches them off. Readable with a workspace administrator token only.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, metrics: false })
   * ```
   */
  metrics?: 'route' | 'collect' | false
  /**
   * A request taking at least this many ms is logged at `warn` instead of `info`; 0 never. Default 1000.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, slowRequestMs: 250 })
   * ```
   */
  slowRequestMs?: number
  /**
   * The built web console served at `/console` (a folder with `index.html` and `assets/`, as `npm run build`
   * writes `dist/console`), or `false` to serve no console. Default: the package's own build.
   *
   * @example
   * ```ts
   * await createApp({ memory: true, consoleDir: false })
   * ```
   */
  consoleDir?: string | false
  /**
   * Answer plain hot reads (`getFile` without a query or body) on node:http directly instead of through the Hono
   * app, with the same checks, answers, log line and metrics (decision 1235). Used by `createServer`; off when CORS
   * is on (`corsOrigins`), whose headers only the Hono app writes. Default `true`; `false` sends every request
   * through the Hono app.
   *
   * @example
   * ```ts
   * await createServer({ memory: true, port: 0, directLane: false })
   * ```
   */
  directLane?: boolean
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
 * const bot = await app.admin.createBot({ name: 'support' })
 * const { id, token } = await app.admin.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' })
 * await app.admin.revokeToken(id)
 * ```
 */
export interface AppAdmin {
  /**
   * First start: creates the workspace, a bot and a bot token; later starts: returns the first bot (no token).
   *
   * @example
   * ```ts
   * const { created, bot, token } = await app.admin.bootstrap()
   * if (created) console.log(`bot ${bot.id}, token ${token!.token}`)
   * ```
   */
  bootstrap(): Promise<BootstrapResult>
  /**
   * Creates a bot (a UUID id unless given).
   *
   * @example
   * ```ts
   * const bot = await app.admin.createBot({ name: 'support' })
   * ```
   */
  createBot(input?: { name?: string; id?: string }): Promise<BotRecord>
  /**
   * Every bot, oldest first.
   *
   * @example
   * ```ts
   * (await app.admin.listBots()).map((b) => b.id)
   * ```
   */
  listBots(): Promise<BotRecord[]>
  /**
   * Creates a token bound to one bot (`botId`), or with `workspace: true` a member token that reaches every bot
   * of the workspace (the caller names the bot in `x-bot-id`; decision 0208). The record's `scope` says which.
   * The secret (`token`) is returned once and stored only as a hash. Rejects with `AuthStoreError`
   * (`UNKNOWN_BOT`, `INVALID_ROLE`, `INVALID_INTEGRATION`, `INVALID_SCOPE`) on bad input.
   *
   * @example
   * ```ts
   * const { token } = await app.admin.createToken({ botId: bot.id, role: 'viewer' })
   * const personal = await app.admin.createToken({ workspace: true, role: 'developer' }) // personal.scope === 'workspace'
   * ```
   */
  createToken(input: CreateTokenInput): Promise<CreatedToken>
  /**
   * Tokens without their secrets, each with its `scope` (`bot` or `workspace`); revoked ones too unless
   * `activeOnly`. `botId` keeps the tokens that reach that bot: bound to it, or workspace-wide.
   *
   * @example
   * ```ts
   * await app.admin.listTokens({ botId: bot.id, activeOnly: true })
   * ```
   */
  listTokens(filter?: { botId?: string; activeOnly?: boolean }): Promise<TokenRecord[]>
  /**
   * Revokes a token by id; it stops working at once. Rejects with `AuthStoreError('UNKNOWN_TOKEN')` for an unknown id.
   *
   * @example
   * ```ts
   * await app.admin.revokeToken('tok_0a1b...')
   * ```
   */
  revokeToken(id: string): Promise<TokenRecord>
  /**
   * A one-time code for the console's sign-in link (`<url>/console/#sign-in=<code>`): redeemed once, within 24
   * hours and while this process runs, for a new workspace administrator token (decision 1102).
   *
   * @example
   * ```ts
   * const { code } = app.admin.issueSignInCode()
   * console.log(`open http://127.0.0.1:3000/console/#sign-in=${code}`)
   * ```
   */
  issueSignInCode(): IssuedSignInCode
  /**
   * File Storage and Vector DB Storage of every bot of the workspace, and the total (the two measures the Botpress plans bill;
   * docs/search.md "Accounting and quotas").
   *
   * @example
   * ```ts
   * const { total } = await app.admin.usage()
   * total.fileStorage.bytes // content bytes of every file
   * ```
   */
  usage(): Promise<WorkspaceUsage>
}

/**
 * A running app: a fetch handler plus its admin surface.
 *
 * @example
 * ```ts
 * const app: BotshelfApp = await createApp({ memory: true })
 * const res = await app.fetch(new Request('http://local/v1/openapi.json'))
 * await app.close()
 * ```
 */
export interface BotshelfApp {
  /**
   * The Hono fetch handler: `Request` in, `Response` out. `connection` tells the app who is calling (the per-IP
   * rate limit keys on `remoteAddress`); `createServer` passes it, and so should an embedder serving the app
   * from its own HTTP stack. Without it, the per-IP limit does not apply.
   *
   * @example
   * ```ts
   * await app.fetch(new Request('http://local/health'), { remoteAddress: '203.0.113.7' })
   * ```
   */
  fetch(request: Request, connection?: RequestConnection): Promise<Response>
  readonly admin: AppAdmin
  readonly services: AppServices
  /** The Hono app itself (its route table is `app.hono.routes`); to serve it, prefer `fetch`. */
  readonly hono: Hono<AppEnv>
  /** The rate limits in force (`null` when off), with their store. */
  readonly rateLimits: ResolvedRateLimits | null
  /**
   * The direct lane of hot reads, for a node:http server: takes a plain `getFile` (and any operation registered with
   * `registerDirectOperation`) and answers it on `outgoing`, returning a promise settled once answered; returns
   * `undefined` for any other request, which the caller hands to `fetch` (through @hono/node-server). A request it
   * took but leaves to the app (an unknown token, a refused rate limit) goes to `fallback` (decision 1235).
   *
   * @example
   * ```ts
   * const taken = app.answerDirect(incoming, outgoing, () => listener(incoming, outgoing))
   * if (!taken) await listener(incoming, outgoing)
   * ```
   */
  answerDirect(incoming: IncomingMessage, outgoing: ServerResponse, fallback: () => Promise<void> | void): Promise<void> | undefined
  /** Stops the job runner and background tasks, then closes the backend if the app opened it. */
  close(): Promise<void>
}

/** The model the environment names (`BOTSHELF_LLM_*`), or the unconfigured one that fails saying which setting to give. */
function languageModelFromEnv(): LanguageModel {
  const options = languageModelOptionsFromEnv(process.env)
  return options ? createOpenAiCompatibleLanguageModel(options) : unconfiguredLanguageModel
}

/**
 * Builds the service: opens the backend (or takes the one given), mounts the routes, starts the job runner and
 * the features, and returns a fetch handler with an admin surface.
 *
 * @example
 * ```ts
 * const app = await createApp({ memory: true })
 * const bot = await app.admin.createBot()
 * const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
 * const res = await app.fetch(new Request('http://local/v1/files', { headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id } }))
 * await app.close()
 * ```
 */
export async function createApp(options: AppOptions = {}): Promise<BotshelfApp> {
  const shortcuts = [options.backend !== undefined, options.dataDir !== undefined, options.memory === true].filter(Boolean).length
  if (shortcuts > 1) throw new Error('createApp: give one of backend, dataDir or memory: true')
  if (shortcuts === 0) throw new Error('createApp: give a backend, a dataDir (for example "./.botshelf") or memory: true')
  if (options.backend && options.now) throw new Error('createApp: give the clock to the backend (openSqliteBackend({ now })), not to createApp')
  const features =
    options.features ??
    (options.indexing || options.expirySweepIntervalMs !== undefined ? configuredFeatures(options.indexing, options.expirySweepIntervalMs) : defaultFeatures)
  const rateLimits = resolveRateLimits(options.rateLimit)
  const bodyTimeoutMs = checkTimeout('bodyTimeoutMs', options.bodyTimeoutMs ?? defaultTimeouts.bodyTimeoutMs)
  const ownsBackend = options.backend === undefined
  const clock = options.now ? { now: options.now } : {}
  const backend =
    options.backend ?? (options.dataDir !== undefined ? await openBackend({ dataDir: options.dataDir, ...clock }) : await openBackend({ memory: true, ...clock }))
  const dataDir = 'dataDir' in backend && typeof backend.dataDir === 'string' ? backend.dataDir : null

  let services: AppServices
  try {
    const logger = options.logger ? toLogger(options.logger) : createJsonLogger({ write: writeToStdout, level: 'debug' })
    const signingKey = await backend.auth.signingKey(legacySigningKey(dataDir, logger))
    // Handlers read `services` when they run, after it is assigned below.
    const jobs = new JobRunner({
      queue: backend.jobs,
      jobs: features.flatMap((feature) => feature.jobs ?? []),
      services: () => services,
      now: backend.now,
      // Debug lines (one per claim) reach the log only when its threshold is debug (--log-level debug).
      logger: {
        log: (level, message, fields) => {
          services.metrics?.observeJob(message, fields ?? {})
          logger.log(level, message, fields)
        },
      },
      ...(options.jobs?.concurrency !== undefined ? { concurrency: options.jobs.concurrency } : {}),
      pollMs: options.jobs?.pollMs ?? 1000,
      ...(options.jobs?.leaseMs !== undefined ? { leaseMs: options.jobs.leaseMs } : {}),
    })
    const metrics = options.metrics !== false ? new ServiceMetrics({ jobs: backend.jobs }) : undefined
    const publicUrl = options.publicUrl !== undefined ? options.publicUrl.replace(/\/+$/, '') : undefined
    const webhooks = new WebhookDelivery(backend, {
      ...options.webhooks,
      logger,
      ...(metrics ? { registry: metrics.registry } : {}),
      ...(publicUrl !== undefined ? { publicUrl } : {}),
    })
    services = {
      backend,
      files: new FilesService(backend, logger, {
        fileEvent: (type, file) => fileEvent(services, type, file),
        record: (tx, drafts) => webhooks.record(tx, drafts),
        committed: (queued) => webhooks.committed(queued),
      }),
      jobs,
      dataDir,
      now: backend.now,
      signingKey,
      ...(publicUrl !== undefined ? { publicUrl } : {}),
      logger,
      checkResponses: options.checkResponses ?? false,
      ...(metrics ? { metrics } : {}),
      ...(options.slowRequestMs !== undefined ? { slowRequestMs: checkSlowRequestMs(options.slowRequestMs) } : {}),
      ...(options.quotas ? { quotas: options.quotas } : {}),
      languageModel: options.languageModel ?? languageModelFromEnv(),
      importLimits: importLimitsOf(options.importLimits),
      webhooks,
    }
  } catch (error) {
    if (ownsBackend) await backend.close()
    throw error
  }

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
  const metricsRouter = services.metrics && (options.metrics ?? 'route') === 'route' ? metricsRoutes(services.metrics) : undefined
  const limiter = rateLimits ? createRateLimiter({ limits: rateLimits, now: () => services.now(), logger: services.logger }) : undefined
  // The console's static files and the routes that name no bot limit themselves (per address, per token), so
  // they stay out of the tokenless-route matcher; the OpenAPI document lists them with the rest.
  const consoleDir = options.consoleDir === false ? undefined : options.consoleDir !== undefined ? options.consoleDir.replace(/\/*$/, '/') : findConsoleFolder()
  const publicOrigin = services.publicUrl !== undefined ? new URL(services.publicUrl).origin : undefined
  const consoleRouter =
    options.consoleDir === false
      ? undefined
      : consoleRoutes({ dir: consoleDir, ...(publicOrigin ? { publicOrigin } : {}), ...(limiter ? { limit: limiter.byAddress(() => true) } : {}) })
  const signInCodes = new SignInCodes(() => services.now())
  const adminRouter = adminRoutes({ auth: backend.auth, signInCodes, ...(limiter ? { byToken: limiter.byToken, byAddress: limiter.byAddress(() => true) } : {}) })
  const ownRouters = [...(consoleRouter ? [consoleRouter] : []), adminRouter as unknown as Hono<AppEnv>]
  const publicRouters = (): Array<Hono<AppEnv>> => [
    meta,
    ...(metricsRouter ? [metricsRouter] : []),
    openApi,
    ...features.flatMap((feature) => (feature.publicRoutes ? [feature.publicRoutes] : [])),
  ]
  const openApi = openApiRoutes(
    () => [...features.flatMap((feature) => (feature.routes ? registeredOperations(feature.routes) : [])), ...registeredOperations(webhooksRouter)],
    () => [...publicRouters(), ...ownRouters].flatMap(describedRawRoutes),
  )
  // The routes without a token (signed content URLs, `/`, `/health`, the OpenAPI document), as their RawRoute
  // descriptions name them; those with a raw request body (uploads) stream it.
  const tokenlessRoute = rawRouteMatcher(publicRouters().flatMap(describedRawRoutes))
  hono.use('*', bodyDeadline({ timeoutMs: bodyTimeoutMs, streamsBody: (path) => tokenlessRoute(path)?.requestBody !== undefined }))
  if (limiter) hono.use('*', limiter.byAddress((path) => tokenlessRoute(path) !== undefined))
  hono.route('/', meta)
  if (metricsRouter) hono.route('/', metricsRouter)
  hono.route('/', openApi)
  for (const feature of features) if (feature.publicRoutes) hono.route('/', feature.publicRoutes)
  if (consoleRouter) hono.route('/', consoleRouter)
  // Routes that name no bot (whoami, /v1/admin, the console's sign-in) authenticate before the /v1 middleware.
  hono.route('/', adminRouter)
  hono.use('/v1/*', authMiddleware(backend.auth))
  if (limiter) hono.use('/v1/*', limiter.byToken)
  for (const feature of features) if (feature.routes) hono.route('/', feature.routes)
  const webhooksRouter = webhooksRoutes()
  hono.route('/', webhooksRouter)

  // The direct lane calls the same pipeline steps (http/pipeline/) as the middlewares above for the operations it
  // answers: a step added above, as a middleware, must be called by the lane too (http/direct-lane.ts).
  const corsOn = options.corsOrigins !== undefined && options.corsOrigins.length > 0
  const lane =
    options.directLane === false || corsOn
      ? undefined
      : createDirectLane({
          services,
          hono,
          operations: features.flatMap((feature) => (feature.routes ? directOperations(feature.routes) : [])),
          auth: backend.auth,
          ...(limiter && rateLimits?.token ? { takeForToken: limiter.takeForToken } : {}),
        })

  const stops: Array<() => void | Promise<void>> = []
  services.jobs.start()
  services.webhooks.start()
  for (const feature of features) {
    const started = await feature.start?.(services)
    if (started) stops.push(() => started.stop())
  }

  const auth = backend.auth
  const admin: AppAdmin = {
    // One transaction: servers sharing a database that start together create one bot and one token between them.
    bootstrap: () =>
      backend.transaction(async (tx) => {
        const existing = (await tx.auth.listBots())[0]
        if (existing) return { created: false, bot: existing }
        const bot = await tx.auth.createBot({ name: 'my-bot' })
        const token = await tx.auth.createToken({ botId: bot.id, role: 'bot', label: 'created on first start' })
        return { created: true, bot, token }
      }),
    createBot: (input) => auth.createBot(input),
    listBots: () => auth.listBots(),
    createToken: (input) => auth.createToken(input),
    listTokens: (filter) => auth.listTokens(filter),
    revokeToken: (id) => auth.revokeToken(id),
    issueSignInCode: () => signInCodes.issue(),
    usage: () => measureWorkspaceUsage(backend),
  }

  let closed: Promise<void> | undefined
  return {
    fetch: async (request, connection) => hono.fetch(request, connection ? { connection } : {}),
    admin,
    services,
    hono,
    rateLimits,
    answerDirect: (incoming, outgoing, fallback) => lane?.answer(incoming, outgoing, fallback),
    close() {
      closed ??= (async () => {
        await services.jobs.stop()
        await services.webhooks.stop()
        for (const stop of stops) await stop()
        if (ownsBackend) await backend.close()
      })()
      return closed
    },
  }
}

function checkSlowRequestMs(value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`slowRequestMs must be a whole number of milliseconds from 0 (0: never), received ${String(value)}`)
  }
  return value
}
