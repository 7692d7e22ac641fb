import type { LanguageModel } from '../language-model/index.js'
import type { StorageQuotas } from '../usage/index.js'
import type { Hono } from 'hono'
import type { JobContext, JobDefinition, JobRunner } from '../jobs/index.js'
import type { Backend } from '../store/index.js'
import type { FilesService } from '../files/files-service.js'
import type { Principal } from './principal.js'
import type { Logger } from './logger.js'
import type { ServiceMetrics } from '../metrics/service-metrics.js'
import type { WebhookDelivery } from '../webhooks/webhook-delivery.js'

/**
 * The services every route reads from the Hono context (`c.get('services')`). Built once per app by
 * `createApp`. Feature modules (files, tables) take what they need from here instead of importing globals.
 *
 * @example
 * ```ts
 * router.get('/v1/ping', async (c) => {
 *   const { now, backend } = c.get('services')
 *   return c.json({ now: now().toISOString(), bots: (await backend.auth.listBots()).length })
 * })
 * ```
 */
export interface AppServices {
  /** The storage backend: every port (auth, files, knowledge bases, tables, jobs), the blob store, transactions. */
  readonly backend: Backend
  /** The files workflow (define, upload, copy, delete, expire) and its events; every content commit goes through it. */
  readonly files: FilesService
  /** The background job runner of this server: `jobs.wake()` after an enqueue starts the job at once. */
  readonly jobs: JobRunner
  /** The data folder (`--data`), or `null` when the backend is not a data folder. */
  readonly dataDir: string | null
  /** The clock: the backend's, so every timestamp comes from one place. */
  now(): Date
  /** Secret of signed URLs and cursor tokens (32 bytes), kept by the backend so every server on a dataset shares it. */
  readonly signingKey: Buffer
  /** Base for absolute URLs (`uploadUrl`, `url`); when absent, use the request's origin (`publicBaseUrl(c)`). */
  readonly publicUrl?: string
  readonly logger: Logger
  /** When true, every operation's response is validated against its schema (tests turn this on). */
  readonly checkResponses: boolean
  /** The Prometheus metrics of this app (`GET /metrics`); absent when switched off. */
  readonly metrics?: ServiceMetrics
  /** A request taking at least this many ms is logged at `warn` (0: never). Default 1000. */
  readonly slowRequestMs?: number
  /** Storage event delivery: records events in a change's transaction and sends them after the commit. */
  readonly webhooks: WebhookDelivery
  /** Storage limits of the workspace, when set (`createApp({ quotas })`). */
  readonly quotas?: StorageQuotas
  /** The language model (AI columns); without a configured one, calls fail at once naming `--llm-url`. */
  readonly languageModel: LanguageModel
}

/**
 * What the HTTP layer knows of the connection a request came on. `createServer` passes it with every request;
 * an embedder serving `app.fetch` from its own HTTP stack passes it as `app.fetch(request, { remoteAddress })`.
 *
 * @example
 * ```ts
 * const connection: RequestConnection = { remoteAddress: '203.0.113.7' }
 * ```
 */
export interface RequestConnection {
  /**
   * The peer's IP address (what `socket.remoteAddress` gives); the per-IP rate limit keys on it.
   *
   * @example
   * ```ts
   * { remoteAddress: '::ffff:127.0.0.1' }
   * ```
   */
  readonly remoteAddress?: string
}

/**
 * Hono environment of the service: what middleware puts on the context, and the connection (`c.env`; absent
 * when the app is called without one).
 * Create feature routers with `new Hono<AppEnv>()`.
 *
 * @example
 * ```ts
 * const router = new Hono<AppEnv>()
 * router.get('/v1/whoami', (c) => c.json({ principal: c.get('principal') }))
 * ```
 */
export type AppEnv = {
  Bindings: { connection?: RequestConnection }
  Variables: {
    /** Set by the auth middleware, on `/v1` routes only (not on the unauthenticated content routes). */
    principal: Principal
    services: AppServices
    requestId: string
    /** The name of the operation being served (`listFiles`), set by `registerOperation`; labels metrics. */
    operation: string
  }
}

/**
 * A feature of the service (files, tables) as the app mounts it: its unauthenticated routes (signed content URLs,
 * mounted before auth), its authenticated routes, the background jobs it handles, and an optional start hook.
 * Storage belongs to the backend (its ports own their migrations), not to features.
 *
 * @example
 * ```ts
 * export const reportsFeature: ServiceFeature = {
 *   name: 'reports',
 *   routes: reportsRoutes(),
 *   jobs: [buildReportJob],
 *   start: async (services) => { await services.backend.jobs.enqueue({ kind: 'reports.build', dedupeKey: 'nightly' }) },
 * }
 * ```
 */
export interface ServiceFeature {
  readonly name: string
  /** Mounted at `/` before the auth middleware: no principal on the context. */
  readonly publicRoutes?: Hono<AppEnv>
  /** Mounted at `/` after the auth middleware: every `/v1` request has a principal. */
  readonly routes?: Hono<AppEnv>
  /** Handlers of the background jobs this feature queues, run by the app's job runner. */
  readonly jobs?: ReadonlyArray<ServiceJob>
  /** Called once the app is built (startup sweep, first scheduled jobs); `stop` runs on `close()`. */
  start?(services: AppServices): Promise<{ stop(): void | Promise<void> } | void> | { stop(): void | Promise<void> } | void
}

/** What a {@link ServiceJob} runs with: the queued job, its payload read by its schema, a signal and the app's services. */
export type ServiceJobContext<P = unknown> = JobContext<P, AppServices>

/**
 * A background job a feature handles, declared with `defineJob` (one module per kind): the app's job runner claims
 * queued jobs of its kind and runs them with the services. Delivery is at least once: `run` must tolerate running
 * again after a crash.
 *
 * @example
 * ```ts
 * export const expireFilesJob: ServiceJob = defineJob({
 *   kind: 'files.expire',
 *   payload: z.object({}),
 *   async run({ services }) { await services.files.deleteExpired() },
 * })
 * ```
 */
// A feature lists jobs of several payload types; each definition checks its own.
export type ServiceJob<P = any> = JobDefinition<P, AppServices>
