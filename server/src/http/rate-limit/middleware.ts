import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env.js'
import type { Logger } from '../logger.js'
import { formatBucketLimit, type BucketLimit } from './bucket-limit.js'
import { addressKey } from './client-address.js'
import type { ResolvedRateLimits } from './options.js'
import { bucketKey, takeOneRequest } from '../pipeline/rate-limit.js'
import { rateLimitedResponse, retryAfterSeconds, type RateLimitScope } from './rate-limited-response.js'
import { BoundedMap, type Clock } from 'botshelf/api'

/** At most one `rate limited` log line per bucket in this many milliseconds: a flood must not flood the log. */
const LOG_EVERY_MS = 10_000

/** How many buckets the log throttle remembers before it starts over. */
const LOG_MEMORY = 10_000

/** What the rate limit middlewares need from the app. */
export interface RateLimitContext {
  /**
   * The limits and the store (`resolveRateLimits`).
   *
   * @example
   * ```ts
   * { limits: resolveRateLimits(undefined)! }
   * ```
   */
  readonly limits: ResolvedRateLimits
  /**
   * The app's clock; buckets refill on it, so a fake clock drives them in tests.
   *
   * @example
   * ```ts
   * { now: () => new Date() }
   * ```
   */
  readonly now: Clock
  /**
   * Where the `rate limited` lines go (one per bucket every 10 s at most, level `warn`).
   *
   * @example
   * ```ts
   * { logger: silentLogger }
   * ```
   */
  readonly logger: Logger
}

/**
 * The two middlewares of rate limiting: `byToken` (mount after authentication on `/v1/*`: one bucket per token
 * id) and `byAddress` (mount before the routes without a token: one bucket per client IP address, for the
 * paths `isTokenless` accepts). A refused request is answered 429 `RateLimited` with `Retry-After` before any
 * handler runs, so it changed nothing and may be sent again as is. `takeForToken` is the token check alone, for the
 * direct lane of hot reads: `false` when refused, and then nothing was taken.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ limits, now: () => new Date(), logger })
 * limiter.takeForToken('tok_1') // true while the token's bucket holds a request
 * app.use('*', limiter.byAddress((path) => path === '/health' || path.startsWith('/v1/content/')))
 * app.use('/v1/*', authMiddleware(auth))
 * app.use('/v1/*', limiter.byToken)
 * ```
 */
export function createRateLimiter(context: RateLimitContext): {
  byToken: MiddlewareHandler<AppEnv>
  byAddress(isTokenless: (path: string) => boolean): MiddlewareHandler<AppEnv>
  takeForToken(tokenId: string): boolean | Promise<boolean>
} {
  const { limits, now, logger } = context
  const lastLogged = new BoundedMap<string, number>(LOG_MEMORY, 'clear')

  const check = async (
    c: Context<AppEnv>,
    scope: RateLimitScope,
    limit: BucketLimit,
    id: string,
    next: () => Promise<void>,
  ): Promise<Response | void> => {
    const at = now()
    const time = at.getTime()
    const key = bucketKey(scope, id)
    const decision = await takeOneRequest(limits.store, scope, id, time, limit)
    if (decision.allowed) return next()
    const previous = lastLogged.get(key)
    if (previous === undefined || time - previous >= LOG_EVERY_MS || time < previous) {
      lastLogged.set(key, time)
      logger.log('warn', 'rate limited', {
        requestId: c.get('requestId'),
        scope,
        [scope === 'token' ? 'tokenId' : 'address']: id,
        limit: formatBucketLimit(limit),
        retryAfterSeconds: retryAfterSeconds(decision.retryAfterMs),
        method: c.req.method,
        path: c.req.path,
      })
    }
    const requestId = c.get('requestId')
    return rateLimitedResponse(scope, limit, decision.retryAfterMs, at, requestId !== undefined ? { 'x-request-id': requestId } : {})
  }

  const byToken: MiddlewareHandler<AppEnv> = async (c, next) => {
    const principal = c.get('principal')
    if (!limits.token || !principal) return next()
    return check(c, 'token', limits.token, principal.tokenId, next)
  }

  const byAddress = (isTokenless: (path: string) => boolean): MiddlewareHandler<AppEnv> => {
    return async (c, next) => {
      // Called without a connection (in process, or an embedder that passes none): there is no address to key on.
      const address = c.env?.connection?.remoteAddress
      if (!limits.ip || !address || !isTokenless(c.req.path)) return next()
      return check(c, 'ip', limits.ip, addressKey(address), next)
    }
  }

  // The direct lane's check (http/direct-lane.ts): a refusal takes nothing, and the lane hands the request to the
  // app, whose `byToken` refuses it again with the 429, its log line and its headers.
  const takeForToken = (tokenId: string): boolean | Promise<boolean> => {
    if (!limits.token) return true
    const decision = takeOneRequest(limits.store, 'token', tokenId, now().getTime(), limits.token)
    return decision instanceof Promise ? decision.then((taken) => taken.allowed) : decision.allowed
  }

  return { byToken, byAddress, takeForToken }
}
