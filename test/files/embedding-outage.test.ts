import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { embedderFromCli } from '../../server/src/cli/embedder-options.js'
import { startFakeEmbeddingsServer } from '../../server/src/search/embedding/fake-embeddings-server.test-support.js'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { markdownTestExtractor } from '../../server/src/search/indexing/markdown-extractor.test-support.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { uploadText } from './helpers.js'
import { pause, settledFile } from './search-helpers.js'

// The embeddings service is the edge of the world: a fake OpenAI-compatible server on a local port stands for it.
let fake: Awaited<ReturnType<typeof startFakeEmbeddingsServer>>
let service: TestService
beforeEach(async () => {
  fake = await startFakeEmbeddingsServer(12)
  // Configured as `botshelf serve --embeddings-url ... --embeddings-model ... --embeddings-max-retries 0` would be:
  // one attempt per call, so the outage reaches the indexing job at once and the job waits the service's Retry-After.
  const { embedder } = await embedderFromCli({ 'embeddings-url': fake.url, 'embeddings-model': 'fake-model', 'embeddings-max-retries': '0' }, {})
  service = await startTestService({
    listen: true,
    jobs: { pollMs: 50 },
    features: [createFilesFeature({ indexing: { extractor: markdownTestExtractor, embedder } })],
  })
})
afterEach(async () => {
  await service.close()
  await fake.close()
})

const DOWN = { status: 503, headers: { 'retry-after': '1' }, body: { error: { message: 'model is loading' } } }

describe('embedding service outage', () => {
  it('keeps an upload indexing_pending while the service answers 503, searches by words meanwhile, and completes when it is back', async () => {
    const { file: before } = await uploadText(service, 'returns.md', '# Returns\n\nRefunds are paid within thirty days.', { index: true })
    expect((await settledFile(service, before.id)).status).toBe('indexing_completed')

    fake.outage(DOWN)
    const refusedBefore = fake.requests.length
    const { file } = await uploadText(service, 'shipping.md', '# Shipping\n\nParcels leave the warehouse every morning.', { index: true })
    // Wait (bounded) for a first attempt and a retry after Retry-After: 1 s; no timing is asserted.
    for (let i = 0; i < 400 && fake.requests.length < refusedBefore + 2; i++) await pause(50)
    expect(fake.requests.length).toBeGreaterThanOrEqual(refusedBefore + 2)
    const waiting = await service.request('GET', `/v1/files/${file.id}`)
    expect(waiting.body.file.status).toBe('indexing_pending')
    expect(waiting.body.file.failedStatusReason).toBeUndefined()
    expect(service.logs.some((line) => line.msg === 'indexing waits for the embedder' && line.fileId === file.id)).toBe(true)

    // Search answers 200 by words while the question cannot be embedded.
    const lexical = await service.request('GET', '/v1/files/search', { query: { query: 'refunds thirty days' } })
    expect(lexical.status).toBe(200)
    expect(lexical.body.passages[0]).toMatchObject({ content: 'Refunds are paid within thirty days.', file: { id: before.id } })
    const client = service.botpressClient('bot')
    const official = await client.searchFiles({ query: 'refunds' })
    expect(official.passages.map((p) => p.content)).toContain('Refunds are paid within thirty days.')

    // The service comes back: the waiting file completes and vector search finds it by a question with no shared word.
    fake.outage(undefined)
    const done = await settledFile(service, file.id)
    expect(done).toMatchObject({ status: 'indexing_completed', indexingStack: 'v1' })
    const semantic = await service.request('GET', '/v1/files/search', { query: { query: 'xylophone quartz' } })
    expect(semantic.status).toBe(200)
    expect(semantic.body.passages.map((p: any) => p.file.id)).toContain(file.id)
  })
})
