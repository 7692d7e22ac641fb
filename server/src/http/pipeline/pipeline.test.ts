import { describe, expect, it } from 'vitest'
import type { AuthPort } from '../../store/index.js'
import { MemoryRateLimitStore } from '../rate-limit/memory-store.js'
import { authenticateCaller } from './authenticate.js'
import { errorAnswer } from './error-answer.js'
import { bucketKey, takeOneRequest } from './rate-limit.js'
import { ServiceError } from '../service-error.js'
import { toLogger } from '../logger.js'

// The steps both answer paths call (decision 1303); the paths themselves are compared in test/server/direct-lane.test.ts.

const principal = { kind: 'bot' as const, botId: 'bot_1', tokenId: 'tok_1' }
const auth = {
  authenticate: async (token: string, botId: string) => {
    if (token !== 'good') return { ok: false, reason: 'unknown_token' }
    if (botId === 'bot_1') return { ok: true, principal, scope: 'bot' }
    return { ok: false, reason: botId === 'bot_2' ? 'wrong_bot' : 'unknown_bot' }
  },
} as unknown as AuthPort

async function refusal(authorization: string | undefined, botId: string | undefined): Promise<string> {
  const error = await authenticateCaller(auth, authorization, botId).then(
    () => undefined,
    (e: unknown) => e,
  )
  return error instanceof ServiceError ? `${error.status} ${error.type}` : 'accepted'
}

describe('authenticateCaller', () => {
  it('checks the token first, then x-bot-id, then the bot', async () => {
    expect(await refusal(undefined, 'bot_1')).toBe('401 Unauthorized')
    expect(await refusal('Basic abc', 'bot_1')).toBe('401 Unauthorized')
    expect(await refusal('Bearer bad', undefined)).toBe('401 Unauthorized')
    expect(await refusal('Bearer good', undefined)).toBe('400 InvalidPayload')
    expect(await refusal('Bearer good', '  ')).toBe('400 InvalidPayload')
    expect(await refusal('Bearer good', 'bot_2')).toBe('403 Forbidden')
    expect(await refusal('Bearer good', 'bot_9')).toBe('403 Forbidden')
    expect(await authenticateCaller(auth, 'bearer good', ' bot_1 ')).toEqual(principal)
  })
})

describe('takeOneRequest', () => {
  it('spends one token from the bucket of one key spelling, and a refusal spends nothing', async () => {
    const store = new MemoryRateLimitStore()
    const limit = { perSecond: 1, burst: 2 }
    expect(bucketKey('token', 'tok_1')).toBe('token:tok_1')
    expect((await takeOneRequest(store, 'token', 'tok_1', 0, limit)).allowed).toBe(true)
    expect((await takeOneRequest(store, 'token', 'tok_1', 0, limit)).allowed).toBe(true)
    expect((await takeOneRequest(store, 'token', 'tok_1', 0, limit)).allowed).toBe(false)
    // The same bucket under the one spelling, whoever takes from it.
    expect((await store.take(bucketKey('token', 'tok_1'), 1, 0, limit)).allowed).toBe(false)
    expect((await takeOneRequest(store, 'ip', 'tok_1', 0, limit)).allowed).toBe(true)
  })
})

describe('errorAnswer', () => {
  it('answers a service error as its wire body and reports only server errors', () => {
    const reported: unknown[] = []
    const services = { logger: toLogger({ log: (...args: unknown[]) => void reported.push(args) }), now: () => new Date('2026-11-28T00:00:00Z') }
    const notFound = errorAnswer(new ServiceError('ResourceNotFound', 'File "a" not found'), services, 'req_1')
    expect(notFound.status).toBe(404)
    expect(JSON.parse(notFound.text)).toMatchObject({ code: 404, type: 'ResourceNotFound', message: 'File "a" not found' })
    expect(reported).toHaveLength(0)
    const crash = errorAnswer(new Error('disk on fire'), services, 'req_2')
    expect(crash.status).toBe(500)
    expect(JSON.parse(crash.text)).toMatchObject({ type: 'Internal', message: 'An internal error occurred' })
    expect(reported).toHaveLength(1)
  })
})
