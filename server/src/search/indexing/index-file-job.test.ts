import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Backend, FileRecord } from '../../store/index.js'
import { openSqliteBackend } from '../../store/sqlite/backend.js'
import type { AppServices } from '../../http/env.js'
import { INDEX_FILE_JOB, enqueueIndexing } from './enqueue-indexing.js'
import { failDeadIndexingJobs, indexFileJob } from './index-file-job.js'
import { WebhookDelivery } from '../../webhooks/index.js'

let backend: Backend
let services: AppServices
const logs: Array<{ level: string; message: string }> = []

beforeEach(async () => {
  backend = await openSqliteBackend({ memory: true })
  logs.length = 0
  const logger = { log: (level: string, message: string) => void logs.push({ level, message }) }
  // The real outbox: indexing outcomes record their storage events through it (none here: no subscription).
  services = { backend, now: () => new Date(), logger, signingKey: Buffer.alloc(32, 1), webhooks: new WebhookDelivery(backend, { logger }) } as unknown as AppServices
})
afterEach(async () => {
  await backend.close()
})

async function pendingFile(key: string): Promise<FileRecord> {
  const { file } = await backend.files.upsert({
    botId: 'bot_1', key, ownerScope: '', owner: { type: 'bot', id: 'bot_1' }, size: 3, contentType: 'text/plain',
    tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
  })
  return (await backend.files.completeUpload(file.id, file.version, { blobId: `blob_${key}`, size: 3, sha256: 'x' })).file
}

describe('failDeadIndexingJobs', () => {
  it('fails the file of an indexing job that went dead without an outcome, once', async () => {
    const file = await pendingFile('dead.md')
    await backend.transaction((tx) => enqueueIndexing(tx, file))
    // A worker claimed it and died on its only attempt: the next claim buries it.
    const [queued] = await backend.jobs.list({ kind: INDEX_FILE_JOB })
    expect(queued).toBeDefined()
    const claimed = await backend.jobs.claim({ workerId: 'w', kinds: [INDEX_FILE_JOB], leaseMs: 1000 })
    await backend.jobs.fail(claimed!.id, 'w', { error: 'the worker was killed', retry: false })
    expect(await failDeadIndexingJobs(services)).toBe(1)
    const failed = await backend.files.getById('bot_1', file.id)
    expect(failed).toMatchObject({ status: 'indexing_failed' })
    expect(failed!.failedStatusReason).toMatch(/^indexing stopped after 1 attempts: the worker was killed/)
    expect(await failDeadIndexingJobs(services)).toBe(0)
  })
})

describe('indexFileJob', () => {
  it('does nothing for a superseded request, and fails with a reason when no extractor is configured', async () => {
    const file = await pendingFile('stale.md')
    const job = indexFileJob({})
    const run = (generation: number) =>
      job.run({ job: { id: 'j', kind: INDEX_FILE_JOB, payload: { fileId: file.id, generation }, attempts: 1, maxAttempts: 5 } as never, payload: { fileId: file.id, generation }, attempt: 1, signal: new AbortController().signal, services })
    await run(file.indexGeneration - 1)
    expect((await backend.files.getById('bot_1', file.id))!.status).toBe('indexing_pending')
    await run(file.indexGeneration)
    const failed = await backend.files.getById('bot_1', file.id)
    expect(failed!.status).toBe('indexing_failed')
    expect(failed!.failedStatusReason).toMatch(/no document extractor configured/)
  })
})
