import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFakeClock } from '../../src/testing/fake-clock.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { runOneTokenLoad } from '../helpers/one-token-load.js'

// Decision 1441: a bot's own load is never refused by default. 200 concurrent @botpress/client loops of one bot
// token with the client's default settings (no retry on 429). The service's clock stands still, so no bucket
// refills however slow the machine: the old default (100/s, bursts of 500) refused every call past the 500th of
// these 1,000. The 30-second run of the issue, on the wall clock, is bench/one-token-load.bench.ts.
describe('one bot token under 200 concurrent @botpress/client loops, default settings', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ listen: true, now: createFakeClock('2026-11-28T12:00:00Z').now })
  })
  afterAll(async () => service?.close())

  // A generous bound: 1,000 calls take a few seconds alone and more on a loaded 2-core machine.
  it('sees no 429, and every acknowledged upload reads back byte for byte', { timeout: 60_000 }, async () => {
    const result = await runOneTokenLoad(() => service.botpressClient(), { clients: 200, rounds: 2, uploadEveryRound: false })
    // A failure names its cause: the service's own error lines ride along in the assertion message.
    const errors = service.logs.filter((line) => line.level === 'error' || line.level === 'warn')
    const cause = `server errors and warnings: ${JSON.stringify(errors.slice(0, 5))}`
    expect(result.rateLimited, cause).toBe(0)
    expect(result.otherFailures, cause).toEqual({})
    expect(result.acknowledged, cause).toHaveLength(200)
    expect(result.succeeded, cause).toBe(1000)
    const client = service.botpressClient()
    const listed = new Map<string, { key: string; url: string }>()
    let nextToken: string | undefined
    do {
      const page = await client.listFiles({ ...(nextToken ? { nextToken } : {}) })
      for (const file of page.files) listed.set(file.id, file)
      nextToken = page.meta.nextToken
    } while (nextToken)
    expect(listed.size).toBe(200)
    for (const written of result.acknowledged) {
      const file = listed.get(written.id)!
      expect(file.key).toBe(written.key)
      expect(await (await fetch(file.url)).text()).toBe(written.content)
    }

  })
})
