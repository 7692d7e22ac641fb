import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

// A large import runs as a background job: the server keeps answering while it runs, and the job reports
// progress on the way. 120,000 rows (about 4 MB of CSV) keep the job busy for seconds on a slow machine.
const ROWS = 120_000

let service: TestService
beforeAll(async () => {
  service = await startTestService({ listen: true, jobs: { pollMs: 50 } })
})
afterAll(async () => {
  await service.close()
})

function csvOf(rows: number): Buffer {
  const lines = ['name,score,note']
  for (let i = 0; i < rows; i++) lines.push(`user-${i},${i % 997},"note ${i}, with a comma"`)
  return Buffer.from(`${lines.join('\n')}\n`)
}

describe('a large import in the background', () => {
  it('answers GET /health within 100 ms nine times in ten while it runs, and its progress moves through intermediate values', async () => {
    await service.request('POST', '/v1/tables', { body: { name: 'bigImportTable', schema: { name: '', score: 0, note: '' } } })
    const content = csvOf(ROWS)
    const { body: defined } = await service.request('PUT', '/v1/files', { body: { key: 'imports/big.csv', size: content.byteLength } })
    const put = await fetch(defined.file.uploadUrl, { method: 'PUT', body: content as unknown as BodyInit })
    expect(put.status).toBe(200)

    const started = await service.request('POST', '/v1/tables/bigImportTable/import', { body: { fileId: defined.file.id } })
    expect(started.status, started.text).toBe(200)
    const jobId: string = started.body.job.id

    const healthWaits: number[] = []
    const progress = new Set<number>()
    let status = started.body.job.status as string
    const deadline = Date.now() + 120_000
    while (status !== 'completed' && status !== 'failed') {
      if (Date.now() > deadline) throw new Error(`the import did not finish in time (status ${status})`)
      const t0 = performance.now()
      const health = await fetch(`${service.url}/health`)
      healthWaits.push(performance.now() - t0)
      expect(health.status).toBe(200)
      const { body } = await service.request('GET', '/v1/tables/bigImportTable/jobs')
      const job = body.jobs.find((j: { id: string }) => j.id === jobId)
      status = job.status
      progress.add(job.progress)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }

    expect(status).toBe('completed')
    expect((await service.request('GET', '/v1/tables/bigImportTable')).body.rows).toBe(ROWS)
    const intermediate = [...progress].filter((value) => value > 0 && value < 1)
    expect(intermediate.length, `progress values seen: ${[...progress].join(', ')}`).toBeGreaterThanOrEqual(3)
    expect(healthWaits.length).toBeGreaterThan(5)
    // Nine health checks in ten answer within 100 ms. An import that held the event loop would delay most of them
    // (each request waits out the slice it lands in); a single slow answer is the machine's other load, which a
    // shared CI machine has, and says nothing of the import (decision 1455).
    const sorted = [...healthWaits].sort((a, b) => a - b)
    const ninetieth = sorted[Math.ceil(sorted.length * 0.9) - 1]!
    expect(ninetieth, `health waits (ms): ${healthWaits.map((w) => w.toFixed(0)).join(', ')}`).toBeLessThan(100)
  })
})
