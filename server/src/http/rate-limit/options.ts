import { BotshelfError } from 'botshelf/api'
import { bucketLimitProblem, defaultBurstFor, formatBucketLimit, type BucketLimit } from './bucket-limit.js'
import { MemoryRateLimitStore } from './memory-store.js'
import type { RateLimitStore } from './store.js'

/**
 * How the service limits request rates (`createApp({ rateLimit })`, `botshelf serve --rate-limit`): one token
 * bucket per token on the authenticated `/v1` routes, one per client IP address on the routes that take no
 * token (signed content URLs, `/`, `/health`, the OpenAPI document). `false` switches a tier off; a tier left
 * out keeps its default (`defaultRateLimits`).
 *
 * @example
 * ```ts
 * await createApp({ memory: true, rateLimit: { token: { perSecond: 50, burst: 200 }, ip: false } })
 * ```
 */
export interface RateLimitOptions {
  /**
   * Per token, on the authenticated `/v1` routes (after authentication). Default: off (decision 1441); a bot's
   * own load is its owner's to pace.
   *
   * @example
   * ```ts
   * { token: { perSecond: 20, burst: 100 } }
   * ```
   */
  token?: BucketLimit | false
  /**
   * Per client IP address (IPv6 by its /64), on the routes that take no token. Default 200 requests a second,
   * bursts of 1000. Applies only when the app knows the address: `createServer` passes it; an embedder serving
   * `app.fetch` from its own stack passes `app.fetch(request, { remoteAddress })`.
   *
   * @example
   * ```ts
   * { ip: { perSecond: 50, burst: 250 } }
   * ```
   */
  ip?: BucketLimit | false
  /**
   * Where the counters live. Default: a `MemoryRateLimitStore` of this app. Give a shared store so several
   * servers of a dataset count together.
   *
   * @example
   * ```ts
   * { store: new MemoryRateLimitStore({ maxKeys: 10_000 }) }
   * ```
   */
  store?: RateLimitStore
}

/**
 * The defaults: no limit per token (a self-hosted service serves its owner's bots; an operator who shares it sets
 * `--rate-limit`, decision 1441); per IP address (routes without a token) 200 a second with bursts of 1000, since
 * anyone who can reach the port can send those (decision 0702).
 *
 * @example
 * ```ts
 * defaultRateLimits.token // false
 * defaultRateLimits.ip // { perSecond: 200, burst: 1000 }
 * ```
 */
export const defaultRateLimits: { readonly token: false; readonly ip: BucketLimit } = {
  token: false,
  ip: { perSecond: 200, burst: 1000 },
}

/**
 * The burst a per-token limit gets when a spec names only `burst=<n>` or only a rate is missing: the rate the
 * per-token tier had by default before decision 1441 (100 a second), kept as the rate a bare `burst=` refills at.
 *
 * @example
 * ```ts
 * parseRateLimitSpec('burst=200') // { token: { perSecond: 100, burst: 200 } }
 * ```
 */
export const tokenRateWhenOnlyBurst: BucketLimit = { perSecond: 100, burst: 500 }

/**
 * Rate limiting as the app runs it: each tier's limit (`null` when off) and the store.
 *
 * @example
 * ```ts
 * const resolved: ResolvedRateLimits = resolveRateLimits(undefined)!
 * ```
 */
export interface ResolvedRateLimits {
  /** Per token; `null` when off. @example `{ perSecond: 100, burst: 500 }` */
  readonly token: BucketLimit | null
  /** Per IP address; `null` when off. @example `{ perSecond: 200, burst: 1000 }` */
  readonly ip: BucketLimit | null
  /** Where the counters live. @example `new MemoryRateLimitStore()` */
  readonly store: RateLimitStore
}

/**
 * A `--rate-limit` spec or a `rateLimit` option that cannot be used; the message says why.
 *
 * @example
 * ```ts
 * try { parseRateLimitSpec('fast') } catch (error) { if (error instanceof RateLimitOptionError) console.error(error.message) }
 * ```
 */
export class RateLimitOptionError extends BotshelfError {
  override readonly name: string = 'RateLimitOptionError'
  constructor(message: string) {
    super('InvalidPayload', 'INVALID_RATE_LIMIT', message)
  }
}

const RATE = /^(\d+(?:\.\d+)?)\/([smh])$/
const COUNT = /^\d+$/
const unitSeconds = { s: 1, m: 60, h: 3600 } as const

const grammar =
  '"off", or comma-separated settings: a rate per token ("100/s", "30/m", "1000/h"), "burst=<n>", "token=off", "ip=<rate>" or "ip=off", "ip-burst=<n>"'

function rateOf(text: string, setting: string): number {
  const match = RATE.exec(text)
  if (!match) throw new RateLimitOptionError(`${setting}: expected a rate like 100/s, 30/m or 1000/h, received "${text}"`)
  return Number(match[1]) / unitSeconds[match[2] as keyof typeof unitSeconds]
}

function countOf(text: string, setting: string): number {
  if (!COUNT.test(text)) throw new RateLimitOptionError(`${setting}: expected a whole number, received "${text}"`)
  return Number(text)
}

function tier(name: string, rate: number | 'off' | undefined, burst: number | undefined, fallback: BucketLimit): BucketLimit | false | undefined {
  if (rate === 'off') {
    if (burst !== undefined) throw new RateLimitOptionError(`${name === 'token' ? 'burst' : 'ip-burst'} cannot go with ${name}=off`)
    return false
  }
  if (rate === undefined && burst === undefined) return undefined
  const limit = { perSecond: rate ?? fallback.perSecond, burst: burst ?? (rate === undefined ? fallback.burst : defaultBurstFor(rate)) }
  const problem = bucketLimitProblem(limit)
  if (problem) throw new RateLimitOptionError(`${name}: ${problem}`)
  return limit
}

/**
 * Reads a rate limit spec (the `--rate-limit` grammar): `off`, or comma-separated settings: a rate per token
 * (`100/s`, `30/m`, `1000/h`, also written `token=100/s`), `burst=<n>`, `token=off`, `ip=<rate>` or `ip=off`,
 * `ip-burst=<n>`. A rate without a burst gets five seconds' worth; what is not named keeps its default. Throws
 * `RateLimitOptionError` naming the faulty setting.
 *
 * @example
 * ```ts
 * parseRateLimitSpec('off') // false
 * parseRateLimitSpec('50/s,burst=200') // { token: { perSecond: 50, burst: 200 } }
 * parseRateLimitSpec('ip=10/s') // { ip: { perSecond: 10, burst: 50 } }
 * parseRateLimitSpec('fast') // throws RateLimitOptionError
 * ```
 */
export function parseRateLimitSpec(spec: string): RateLimitOptions | false {
  const text = spec.trim()
  if (text === 'off') return false
  if (text === '') throw new RateLimitOptionError(`expected ${grammar}`)
  const seen = new Set<string>()
  let tokenRate: number | 'off' | undefined
  let tokenBurst: number | undefined
  let ipRate: number | 'off' | undefined
  let ipBurst: number | undefined
  for (const raw of text.split(',')) {
    const part = raw.trim()
    const equals = part.indexOf('=')
    const name = equals === -1 ? (RATE.test(part) ? 'token' : part) : part.slice(0, equals).trim()
    const value = equals === -1 ? part : part.slice(equals + 1).trim()
    if (!['token', 'burst', 'ip', 'ip-burst'].includes(name) || (equals === -1 && name !== 'token')) {
      throw new RateLimitOptionError(`"${part}" is not a setting; expected ${grammar}`)
    }
    if (seen.has(name)) throw new RateLimitOptionError(`${name} is given twice`)
    seen.add(name)
    if (name === 'token') tokenRate = value === 'off' ? 'off' : rateOf(value, 'token')
    else if (name === 'ip') ipRate = value === 'off' ? 'off' : rateOf(value, 'ip')
    else if (name === 'burst') tokenBurst = countOf(value, 'burst')
    else ipBurst = countOf(value, 'ip-burst')
  }
  const options: RateLimitOptions = {}
  const token = tier('token', tokenRate, tokenBurst, tokenRateWhenOnlyBurst)
  const ip = tier('ip', ipRate, ipBurst, defaultRateLimits.ip)
  if (token !== undefined) options.token = token
  if (ip !== undefined) options.ip = ip
  return options
}

function checked(name: 'token' | 'ip', limit: BucketLimit | false | undefined): BucketLimit | null {
  if (limit === false) return null
  if (limit === undefined) return defaultRateLimits[name] || null
  const problem = bucketLimitProblem(limit)
  if (problem) throw new RateLimitOptionError(`rateLimit.${name}: ${problem}`)
  return { perSecond: limit.perSecond, burst: limit.burst }
}

/**
 * Applies the defaults to the `rateLimit` option of `createApp`: `undefined` gives the defaults, `false` or
 * `'off'` switches rate limiting off (`null`), a string is read with `parseRateLimitSpec`, an object keeps
 * the default of each tier it leaves out. Throws `RateLimitOptionError` for a limit that cannot work.
 *
 * @example
 * ```ts
 * resolveRateLimits(undefined)!.token // null: no per-token limit unless asked (decision 1441)
 * resolveRateLimits('off') // null
 * resolveRateLimits({ ip: false })!.ip // null
 * ```
 */
export function resolveRateLimits(option: RateLimitOptions | false | string | undefined): ResolvedRateLimits | null {
  const options = typeof option === 'string' ? parseRateLimitSpec(option) : option
  if (options === false) return null
  const token = checked('token', options?.token)
  const ip = checked('ip', options?.ip)
  if (!token && !ip) return null
  return { token, ip, store: options?.store ?? new MemoryRateLimitStore() }
}

/**
 * The effective limits in the `--rate-limit` grammar, for the startup banner and logs.
 *
 * @example
 * ```ts
 * describeRateLimits(resolveRateLimits(undefined)) // 'token off; ip 200/s,burst=1000'
 * describeRateLimits(null) // 'off'
 * ```
 */
export function describeRateLimits(limits: ResolvedRateLimits | null): string {
  if (!limits) return 'off'
  return `token ${limits.token ? formatBucketLimit(limits.token) : 'off'}; ip ${limits.ip ? formatBucketLimit(limits.ip) : 'off'}`
}
