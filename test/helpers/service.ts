import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import qs from 'qs'
import type { Client as BotpressClient } from '@botpress/client'
import { createApp, type AppOptions, type BotshelfApp } from '../../server/src/http/app.js'
import { createServer, type RunningServer } from '../../server/src/http/server.js'
import type { LoggerLike } from '../../server/src/http/logger.js'
import type { Backend } from '../../server/src/store/index.js'
import type { SqliteBackend } from '../../server/src/store/sqlite/backend.js'
import { dataFolder } from '../../server/src/platform/index.js'
import { currentTestBackend, testBackends, type TestBackendName } from './backends.js'
import type { TokenRole } from '../../server/src/http/principal.js'

/**
 * The callers the fixture creates tokens for, all bound to the fixture's bot. `alpha` and `beta` are two
 * integrations; `otherBot` is the bot token of a second bot (for cross-bot checks).
 */
export const testCallers = ['bot', 'alpha', 'beta', 'viewer', 'developer', 'manager', 'administrator', 'billing_manager', 'otherBot'] as const

/** A caller name of the fixture. */
export type TestCaller = (typeof testCallers)[number]

/** Options of one fixture request. */
export interface TestRequestOptions {
  /** A caller name (default `'bot'`), a raw token string, or `null` to send no Authorization header. */
  token?: TestCaller | (string & {}) | null
  /** `x-bot-id`; default the fixture's bot (the second bot for `otherBot`); `null` to send none. */
  botId?: string | null
  /** JSON body (serialized); a string or Uint8Array is sent as is. DELETE without body sends `{}` like the official client. */
  body?: unknown
  headers?: Record<string, string>
  /** Query object, serialized like `@botpress/client` does (qs, dot notation, repeated keys). */
  query?: Record<string, unknown>
}

/** A response with its body already read. */
export interface TestResponse<T = any> {
  status: number
  headers: Headers
  /** Parsed JSON when the response is JSON, else the text. */
  body: T
  text: string
}

/** The running test service. */
export interface TestService {
  app: BotshelfApp
  /** The backend the app runs on (closed by `close()`). */
  backend: Backend
  /** Its name in `testBackends`. */
  backendName: TestBackendName
  /** Where the backend keeps file content (`<contentDir>/files/blobs`, `.../tmp`): the data folder's, or a temp folder in memory. */
  contentDir: string
  /** The data folder (a fresh temp dir; removed by `close()`). */
  dataDir: string
  botId: string
  /** Id of a second bot; `tokens.otherBot` belongs to it. */
  otherBotId: string
  tokens: Record<TestCaller, string>
  /** Log lines the app wrote (request log, errors). */
  logs: Array<Record<string, unknown>>
  /** Base URL when started with `listen: true`, else `http://botshelf.test`. */
  url: string
  /** The Node HTTP server when started with `listen: true` (to watch its connections). */
  httpServer?: RunningServer['httpServer']
  /** Sends a request through the app (in process, or over the port when listening). */
  request<T = any>(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse<T>>
  /** An official `@botpress/client` Client for a caller. Needs `listen: true`. */
  botpressClient(caller?: TestCaller): BotpressClient
  close(): Promise<void>
}

/** Options of `startTestService`. */
export interface TestServiceOptions extends Pick<AppOptions, 'now' | 'publicUrl' | 'features' | 'jobs' | 'rateLimit' | 'bodyTimeoutMs' | 'quotas' | 'languageModel' | 'importLimits' | 'webhooks'> {
  /**
   * The backend to run on (default: the run's, `BOTSHELF_TEST_BACKEND`, else file-backed SQLite). A test that
   * reopens its data folder (`dataDir`) always runs on file-backed SQLite.
   */
  backend?: TestBackendName
  /** Listen on a real port (127.0.0.1, port 0) so `@botpress/client` and signed URLs work over HTTP. */
  listen?: boolean
  /** Keep the data dir instead of a fresh one (restart tests). */
  dataDir?: string
  /** Puts something between the app and its backend (a fault injected at the edge), e.g. `(backend) => failingOnce(backend)`. */
  wrapBackend?: (backend: Backend) => Backend
}

const require = createRequire(import.meta.url)

/**
 * Starts the real service on a temp data dir with one bot and a token for every caller, and response
 * validation on.
 *
 * @example
 * ```ts
 * const service = await startTestService()
 * const res = await service.request('GET', '/v1/files', { token: 'viewer', query: { tags: { k: ['a', 'b'] } } })
 * expect(res.status).toBe(200)
 * await service.close()
 * ```
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const ownDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'botshelf-test-')))
  const logs: Array<Record<string, unknown>> = []
  const logger: LoggerLike = { log: (level, msg, fields) => logs.push({ level, msg, ...fields }) }
  const backendName: TestBackendName = options.dataDir !== undefined ? 'sqlite' : (options.backend ?? currentTestBackend())
  const backend = await testBackends[backendName]({ dataDir, ...(options.now ? { now: options.now } : {}) })
  const appOptions: AppOptions = {
    backend: options.wrapBackend ? options.wrapBackend(backend) : backend,
    logger,
    checkResponses: true,
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.features ? { features: options.features } : {}),
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    ...(options.quotas ? { quotas: options.quotas } : {}),
    ...(options.languageModel ? { languageModel: options.languageModel } : {}),
    ...(options.importLimits ? { importLimits: options.importLimits } : {}),
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
  }
  let server: RunningServer | undefined
  let app: BotshelfApp
  if (options.listen) {
    server = await createServer({ ...appOptions, port: 0, host: '127.0.0.1' })
    app = server.app
  } else {
    app = await createApp(appOptions)
  }
  const url = server?.url ?? 'http://botshelf.test'

  const [bot, otherBot] = await existingOrNewBots(app)
  const roleOf: Record<Exclude<TestCaller, 'alpha' | 'beta' | 'otherBot'>, TokenRole> = {
    bot: 'bot',
    viewer: 'viewer',
    developer: 'developer',
    manager: 'manager',
    administrator: 'administrator',
    billing_manager: 'billing_manager',
  }
  const tokens = {} as Record<TestCaller, string>
  for (const [caller, role] of Object.entries(roleOf)) tokens[caller as TestCaller] = (await app.admin.createToken({ botId: bot.id, role })).token
  tokens.alpha = (await app.admin.createToken({ botId: bot.id, role: 'integration', integrationName: 'alpha' })).token
  tokens.beta = (await app.admin.createToken({ botId: bot.id, role: 'integration', integrationName: 'beta' })).token
  tokens.otherBot = (await app.admin.createToken({ botId: otherBot.id, role: 'bot' })).token

  async function request<T>(method: string, path: string, req: TestRequestOptions = {}): Promise<TestResponse<T>> {
    const caller = req.token === undefined ? 'bot' : req.token
    const headers = new Headers(req.headers)
    if (caller !== null) {
      const token = (testCallers as readonly string[]).includes(caller) ? tokens[caller as TestCaller] : caller
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
    }
    const botId = req.botId === undefined ? (caller === 'otherBot' ? otherBot.id : bot.id) : req.botId
    if (botId !== null && !headers.has('x-bot-id')) headers.set('x-bot-id', botId)
    let body: BodyInit | undefined
    const upper = method.toUpperCase()
    const payload = req.body === undefined && upper === 'DELETE' ? {} : req.body
    if (payload !== undefined) {
      if (typeof payload === 'string' || payload instanceof Uint8Array) body = payload as BodyInit
      else body = JSON.stringify(payload)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const search = req.query ? qs.stringify(req.query, { encode: true, arrayFormat: 'repeat', allowDots: true }) : ''
    const target = `${url}${path}${search ? `?${search}` : ''}`
    const request = new Request(target, { method: upper, headers, ...(body !== undefined ? { body } : {}) })
    const response = server ? await fetch(request) : await app.fetch(request)
    const text = await response.text()
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json')
    return { status: response.status, headers: response.headers, body: (isJson && text ? JSON.parse(text) : text) as T, text }
  }

  return {
    app,
    backend,
    backendName,
    contentDir: (backend as SqliteBackend).contentDir ?? dataFolder(dataDir).contentDir,
    dataDir,
    botId: bot.id,
    otherBotId: otherBot.id,
    tokens,
    logs,
    url,
    ...(server ? { httpServer: server.httpServer } : {}),
    request,
    botpressClient(caller = 'bot') {
      if (!server) throw new Error('botpressClient needs startTestService({ listen: true })')
      const { Client } = require('@botpress/client') as typeof import('@botpress/client')
      return new Client({ apiUrl: url, token: tokens[caller], botId: caller === 'otherBot' ? otherBot.id : bot.id })
    },
    async close() {
      if (server) await server.close()
      else await app.close()
      await backend.close()
      if (ownDir) await rm(dataDir, { recursive: true, force: true })
    },
  }
}

async function existingOrNewBots(app: BotshelfApp): Promise<[{ id: string }, { id: string }]> {
  // By name: the two bots are often made in the same millisecond, and ids in one millisecond need not sort in the
  // order they were made, so a reopened folder must not take "the first listed" for the test bot.
  const bots = await app.admin.listBots()
  const first = bots.find((bot) => bot.name === 'test-bot') ?? bots[0] ?? (await app.admin.createBot({ name: 'test-bot' }))
  const second = bots.find((bot) => bot.name === 'other-bot') ?? bots.find((bot) => bot.id !== first.id) ?? (await app.admin.createBot({ name: 'other-bot' }))
  return [first, second]
}
