import { afterEach, describe, expect, it } from 'vitest'
import { createEmbedderFromEnv } from './create-embedder-from-env.js'
import { startFakeEmbeddingsServer } from './fake-embeddings-server.test-support.js'

let close: (() => Promise<void>) | undefined
afterEach(async () => close?.())

describe('createEmbedderFromEnv', () => {
  it('uses the service when BOTSHELF_EMBEDDINGS_URL is set', async () => {
    const fake = await startFakeEmbeddingsServer(5)
    close = fake.close
    const embedder = await createEmbedderFromEnv({ BOTSHELF_EMBEDDINGS_URL: fake.url, BOTSHELF_EMBEDDINGS_MODEL: 'm', BOTSHELF_EMBEDDINGS_API_KEY: 'k' })
    expect(await embedder.dimensions()).toBe(5)
    expect(embedder.id).toBe('openai:m:5')
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer k')
  })

  it('falls back to the offline default, reporting a missing word-vector file clearly', async () => {
    await expect(createEmbedderFromEnv({}, { offline: { wordVectorsPath: '/nonexistent/wv.bin' } })).rejects.toMatchObject({ code: 'EMBEDDER_MODEL_MISSING' })
  })
})
