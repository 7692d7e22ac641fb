import type { Hono } from 'hono'
import type { Principal } from './principal.js'
import type { Sqlite } from '../store/sqlite/open-database.js'
import type { Migration } from '../store/sqlite/migrations.js'
import type { Logger } from './http/logger.js'

/**
 * The services every route reads from the Hono context (`c.get('services')`). Built once per app by
 * `createApp`. Feature modules (files, tables) take what they need from here instead of importing globals.
 *
 * @example
 * ```ts
 * router.get('/v1/ping', (c) => {
 *   const { now, db } = c.get('services')
 *   return c.json({ now: now().toISOString(), tables: db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() })
 * })
 * ```
 */
export interface AppServices {
  /** The embedded SQLite database (WAL), migrations already applied. */
  readonly db: Sqlite
  /** The data folder (`--data`), or `null` for an in-memory app. */
  readonly dataDir: string | null
  /**
   * Folder for content, shared by the features (each takes a subfolder: files use `<contentDir>/files`).
   * Under the data folder (`<dataDir>/content`), or a temp folder removed on `close()` for an in-memory app.
   * Always exists.
   */
  readonly contentDir: string
  /** The clock. Tests pass a fake one to `createApp({ now })`. */
  now(): Date
  /**
   * Secret for signed URLs and cursor tokens (32 random bytes). Persisted in `<dataDir>/signing-key`,
   * so signed URLs and tokens survive a restart; random per in-memory app.
   */
  readonly signingKey: Buffer
  /** Base for absolute URLs (`uploadUrl`, `url`); when absent, use the request's origin (`publicBaseUrl(c)`). */
  readonly publicUrl?: string
  readonly logger: Logger
  /** When true, every operation's response is validated against its schema (tests turn this on). */
  readonly checkResponses: boolean
}

/**
 * Hono environment of the service: what middleware puts on the context.
 * Create feature routers with `new Hono<AppEnv>()`.
 *
 * @example
 * ```ts
 * const router = new Hono<AppEnv>()
 * router.get('/v1/whoami', (c) => c.json({ principal: c.get('principal') }))
 * ```
 */
export type AppEnv = {
  Variables: {
    /** Set by the auth middleware, on `/v1` routes only (not on the unauthenticated content routes). */
    principal: Principal
    services: AppServices
    requestId: string
  }
}

/**
 * A feature of the service (files, tables) as the app mounts it: its migrations, its unauthenticated routes
 * (signed content URLs, mounted before auth), its authenticated routes, and an optional background task.
 *
 * @example
 * ```ts
 * export const filesFeature: ServiceFeature = {
 *   name: 'files',
 *   migrations: filesMigrations,
 *   publicRoutes: filesContentRoutes,
 *   routes: filesRoutes,
 *   start: (services) => { const timer = setInterval(() => sweep(services), 60_000); return { stop: () => clearInterval(timer) } },
 * }
 * ```
 */
export interface ServiceFeature {
  readonly name: string
  readonly migrations: ReadonlyArray<Migration>
  /** Mounted at `/` before the auth middleware: no principal on the context. */
  readonly publicRoutes?: Hono<AppEnv>
  /** Mounted at `/` after the auth middleware: every `/v1` request has a principal. */
  readonly routes?: Hono<AppEnv>
  /** Called once the app is built (startup sweep, timers); `stop` runs on `close()`. */
  start?(services: AppServices): { stop(): void | Promise<void> } | void
}
