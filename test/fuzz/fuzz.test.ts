import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'
import { prepareFuzzTarget } from './prepare-target.js'
import { answerProblems, runFuzz } from './run-fuzz.js'
import type { FuzzTarget } from './fuzz-requests.js'

// A small seeded run on every `npm test`; `npm run fuzz` sends 100,000 requests from several seeds.
const SEEDS = [1, 2]
const COUNT_PER_SEED = 400

describe('fuzz: hostile requests against a real server', () => {
  let service: TestService
  let target: FuzzTarget
  beforeAll(async () => {
    service = await startTestService({ listen: true, rateLimit: false })
    target = await prepareFuzzTarget(service)
  })
  afterAll(async () => service?.close())

  for (const seed of SEEDS) {
    it(`seed ${seed}: no 5xx, every error with the wire body and a request id, /health always answering`, async () => {
      const report = await runFuzz({ url: service.url, target, seed, count: COUNT_PER_SEED, concurrency: 6 })
      expect(report.findings).toEqual([])
      expect(report.healthFailures).toBe(0)
      expect(report.healthProbes).toBeGreaterThan(0)
      // The run reached the service's validation, not only its front door: several distinct 4xx and some 200s.
      expect(Object.keys(report.statuses).filter((status) => Number(status) >= 400).length).toBeGreaterThan(4)
      expect(report.statuses[200] ?? 0).toBeGreaterThan(COUNT_PER_SEED / 20)
      const errorLines = service.logs.filter((line) => line['level'] === 'error')
      expect(errorLines).toEqual([])
    })
  }
})

describe('fuzz: the answer checks themselves', () => {
  it('flag a 5xx, an error without the wire body, and a missing request id', () => {
    expect(answerProblems('GET', { status: 500, headers: { 'x-request-id': 'r' }, body: '{"id":"r","code":500,"type":"Internal","message":"x"}' })).toHaveLength(1)
    expect(answerProblems('GET', { status: 400, headers: { 'x-request-id': 'r' }, body: '' })[0]).toMatch(/not JSON/)
    expect(answerProblems('GET', { status: 404, headers: {}, body: '{"id":"r","code":404,"type":"ResourceNotFound","message":"x"}' })[0]).toMatch(/x-request-id/)
    expect(answerProblems('GET', { status: 400, headers: { 'x-request-id': 'r' }, body: '{"id":"r","code":404,"type":"X","message":"x"}' })[0]).toMatch(/wire error body/)
    expect(answerProblems('GET', { status: 200, headers: { 'x-request-id': 'r' }, body: '{}' })).toEqual([])
  })
})
