import { describe, expect, it } from 'vitest'
import { BlobError } from '../blobs/errors.js'
import { ServiceMetrics } from './service-metrics.js'

async function value(metrics: ServiceMetrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name)!
  const sample = (metric.values as Array<{ value: number; labels: Record<string, string | number> }>).find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
  return sample?.value ?? 0
}

describe('ServiceMetrics', () => {
  it('sorts failures into database and blob errors, and leaves others out', async () => {
    const metrics = new ServiceMetrics()
    metrics.observeFailure(Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' }))
    metrics.observeFailure(Object.assign(new Error('connection terminated'), { name: 'PostgresError' }))
    metrics.observeFailure(new BlobError('BLOB_NOT_FOUND', 'content missing'))
    metrics.observeFailure(new TypeError('a bug'))
    expect(await value(metrics, 'botshelf_database_errors_total')).toBe(2)
    expect(await value(metrics, 'botshelf_blob_errors_total')).toBe(1)
  })

  it('counts job outcomes from the runner lines: completed, retried, dead', async () => {
    const metrics = new ServiceMetrics()
    metrics.observeJob('job completed', { kind: 'tables.import' })
    metrics.observeJob('job failed', { kind: 'tables.import', state: 'pending' })
    metrics.observeJob('job failed', { kind: 'tables.import', state: 'dead' })
    metrics.observeJob('job claimed', { kind: 'tables.import' })
    expect(await value(metrics, 'botshelf_job_runs_total', { kind: 'tables.import', outcome: 'completed' })).toBe(1)
    expect(await value(metrics, 'botshelf_job_runs_total', { kind: 'tables.import', outcome: 'retried' })).toBe(1)
    expect(await value(metrics, 'botshelf_job_runs_total', { kind: 'tables.import', outcome: 'dead' })).toBe(1)
  })

  it('keeps each instance apart: two apps in one process never mix counts', async () => {
    const a = new ServiceMetrics()
    const b = new ServiceMetrics()
    a.observeRequest({ operation: 'listFiles', status: 200, seconds: 0.01, bytesIn: 0, bytesOut: 10 })
    expect(await value(a, 'botshelf_requests_total', { operation: 'listFiles', status: '200' })).toBe(1)
    expect(await value(b, 'botshelf_requests_total', { operation: 'listFiles', status: '200' })).toBe(0)
  })
})
