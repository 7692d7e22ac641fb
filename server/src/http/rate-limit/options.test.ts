import { describe, expect, it } from 'vitest'
import { formatBucketLimit, describeBucketLimit } from './bucket-limit.js'
import { MemoryRateLimitStore } from './memory-store.js'
import { defaultRateLimits, describeRateLimits, parseRateLimitSpec, RateLimitOptionError, resolveRateLimits } from './options.js'

describe('parseRateLimitSpec', () => {
  it('reads off, rates in three units, bursts and both tiers', () => {
    expect(parseRateLimitSpec('off')).toBe(false)
    expect(parseRateLimitSpec(' 50/s,burst=200 ')).toEqual({ token: { perSecond: 50, burst: 200 } })
    expect(parseRateLimitSpec('token=50/s')).toEqual({ token: { perSecond: 50, burst: 250 } })
    expect(parseRateLimitSpec('30/m')).toEqual({ token: { perSecond: 0.5, burst: 3 } })
    expect(parseRateLimitSpec('3600/h, burst = 2')).toEqual({ token: { perSecond: 1, burst: 2 } })
    expect(parseRateLimitSpec('burst=50')).toEqual({ token: { perSecond: 100, burst: 50 } })
    expect(parseRateLimitSpec('ip=10/s')).toEqual({ ip: { perSecond: 10, burst: 50 } })
    expect(parseRateLimitSpec('ip-burst=5')).toEqual({ ip: { perSecond: 200, burst: 5 } })
    expect(parseRateLimitSpec('token=off,ip=1.5/s,ip-burst=4')).toEqual({ token: false, ip: { perSecond: 1.5, burst: 4 } })
    expect(parseRateLimitSpec('ip=off')).toEqual({ ip: false })
  })

  it('names what it cannot read', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /expected "off", or comma-separated settings/],
      ['fast', /"fast" is not a setting/],
      ['100', /"100" is not a setting/],
      ['100/d', /"100\/d" is not a setting/],
      ['rate=100/s', /"rate=100\/s" is not a setting/],
      ['burst', /"burst" is not a setting/],
      ['0/s', /token: perSecond must be a number above 0/],
      ['10/s,burst=0', /token: burst must be a whole number from 1/],
      ['burst=1.5', /burst: expected a whole number, received "1.5"/],
      ['ip=fast', /ip: expected a rate like 100\/s/],
      ['10/s,20/s', /token is given twice/],
      ['token=off,burst=5', /burst cannot go with token=off/],
      ['ip=off,ip-burst=5', /ip-burst cannot go with ip=off/],
      ['off,ip=5/s', /"off" is not a setting/],
      ['2000000/s', /at most 1000000/],
    ]
    for (const [spec, message] of cases) {
      expect(() => parseRateLimitSpec(spec), spec).toThrow(RateLimitOptionError)
      expect(() => parseRateLimitSpec(spec), spec).toThrow(message)
    }
  })
})

describe('resolveRateLimits', () => {
  it('applies the defaults, switches off, and keeps the default of a tier left out', () => {
    const defaults = resolveRateLimits(undefined)!
    // No per-token limit unless the operator sets one (decision 1441); the per-IP tier stays.
    expect(defaults.token).toBeNull()
    expect(defaults.ip).toEqual({ perSecond: 200, burst: 1000 })
    expect(defaults.store).toBeInstanceOf(MemoryRateLimitStore)
    expect(resolveRateLimits(false)).toBeNull()
    expect(resolveRateLimits('off')).toBeNull()
    expect(resolveRateLimits({ token: false, ip: false })).toBeNull()
    const ipOnly = resolveRateLimits({ token: false })!
    expect(ipOnly.token).toBeNull()
    expect(ipOnly.ip).toEqual(defaultRateLimits.ip)
    const store = new MemoryRateLimitStore()
    expect(resolveRateLimits({ store })!.store).toBe(store)
    expect(resolveRateLimits('5/s')!.token).toEqual({ perSecond: 5, burst: 25 })
  })

  it('refuses a limit that cannot work, naming the tier', () => {
    expect(() => resolveRateLimits({ token: { perSecond: 10, burst: 0 } })).toThrow('rateLimit.token: burst must be a whole number from 1')
    expect(() => resolveRateLimits({ ip: { perSecond: Number.NaN, burst: 5 } })).toThrow('rateLimit.ip: perSecond must be a number above 0')
  })

  it('describes the limits in the --rate-limit grammar and in words', () => {
    expect(describeRateLimits(resolveRateLimits(undefined))).toBe('token off; ip 200/s,burst=1000')
    // With the per-token tier off by default, switching the IP tier off leaves no limit at all.
    expect(resolveRateLimits({ ip: false })).toBeNull()
    expect(describeRateLimits(resolveRateLimits({ token: { perSecond: 100, burst: 500 }, ip: false }))).toBe('token 100/s,burst=500; ip off')
    expect(describeRateLimits(null)).toBe('off')
    expect(formatBucketLimit({ perSecond: 0.5, burst: 3 })).toBe('30/m,burst=3')
    expect(formatBucketLimit({ perSecond: 1 / 3600, burst: 1 })).toBe('1/h,burst=1')
    expect(describeBucketLimit({ perSecond: 1, burst: 2 })).toBe('1 request per second (bursts of 2)')
  })
})
