import { createServer } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmbedderError, EmbedderUnavailableError } from './embedder-errors.js'
import { embeddingsAnswer, fakeVector, startFakeEmbeddingsServer } from './fake-embeddings-server.test-support.js'
import { createOpenAiCompatibleEmbedder, type OpenAiCompatibleEmbedderOptions } from './openai-compatible-embedder.js'

let fake: Awaited<ReturnType<typeof startFakeEmbeddingsServer>>
let sleeps: number[]

beforeEach(async () => {
  fake = await startFakeEmbeddingsServer(8)
  sleeps = []
})
afterEach(async () => fake.close())

function embedder(options: Partial<OpenAiCompatibleEmbedderOptions> = {}) {
  return createOpenAiCompatibleEmbedder({
    url: fake.url,
    model: 'test-model',
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0))
}

describe('createOpenAiCompatibleEmbedder', () => {
  it('POSTs the model and texts to {url}/embeddings with the bearer key, and returns unit vectors in input order', async () => {
    const vectors = await embedder({ apiKey: 'sk-secret', url: `${fake.url}/` }).embed(['alpha', 'beta'])
    expect(fake.requests).toHaveLength(1)
    const [request] = fake.requests
    expect(request!.method).toBe('POST')
    expect(request!.path).toBe('/v1/embeddings')
    expect(request!.headers.authorization).toBe('Bearer sk-secret')
    expect(request!.headers['content-type']).toBe('application/json')
    expect(request!.body).toMatchObject({ model: 'test-model', input: ['alpha', 'beta'] })
    expect(vectors).toHaveLength(2)
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 5)
    // The fake lists data in reverse: the adapter must order by `index`.
    const alpha = fakeVector('alpha', 8)
    const alphaNorm = Math.hypot(...alpha)
    expect(vectors[0]![0]).toBeCloseTo(alpha[0]! / alphaNorm, 5)
  })

  it('sends no authorization header without an API key', async () => {
    await embedder().embed(['x'])
    expect(fake.requests[0]!.headers.authorization).toBeUndefined()
  })

  it('splits the texts into batches of batchSize and keeps the order across batches', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text ${i}`)
    const vectors = await embedder({ batchSize: 3 }).embed(texts)
    expect(fake.requests.map((r) => r.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)])
    const each = await embedder().embed([texts[5]!])
    expect(Array.from(vectors[5]!)).toEqual(Array.from(each[0]!))
  })

  it('learns the dimension from the service and then knows its id', async () => {
    const instance = embedder()
    expect(() => instance.id).toThrow(/dimensions\(\) first/)
    expect(await instance.dimensions()).toBe(8)
    expect(instance.id).toBe('openai:test-model:8')
    expect(fake.requests).toHaveLength(1)
    await instance.dimensions()
    expect(fake.requests).toHaveLength(1)
  })

  it('refuses an answer whose dimension changed from the one learned', async () => {
    const instance = embedder()
    await instance.embed(['a'])
    fake.answer(embeddingsAnswer(['b'], 4))
    await expect(instance.embed(['b'])).rejects.toThrow(/expected 8 numbers \(the dimension learned earlier\), received 4/)
  })

  it('retries a 429 after the Retry-After seconds it names, then succeeds', async () => {
    fake.answer({ status: 429, headers: { 'retry-after': '3' }, body: { error: { message: 'slow down' } } })
    const vectors = await embedder().embed(['a'])
    expect(vectors).toHaveLength(1)
    expect(sleeps).toEqual([3000])
    expect(fake.requests).toHaveLength(2)
  })

  it('honours an HTTP-date Retry-After against its clock', async () => {
    fake.answer({ status: 503, headers: { 'retry-after': 'Tue, 24 Nov 2026 06:00:10 GMT' } })
    await embedder({ now: () => new Date('2026-11-24T06:00:00Z') }).embed(['a'])
    expect(sleeps).toEqual([10_000])
  })

  it('backs off exponentially on 5xx without Retry-After', async () => {
    fake.answer({ status: 500 }, { status: 502 }, { status: 504 })
    await embedder({ backoffMs: 100 }).embed(['a'])
    expect(sleeps).toEqual([100, 200, 400])
  })

  it('reports EmbedderUnavailableError with retryAfterMs when retries run out', async () => {
    fake.answer(...Array.from({ length: 3 }, () => ({ status: 503, headers: { 'retry-after': '7' }, body: 'maintenance' })))
    const error = await embedder({ maxRetries: 2 }).embed(['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect(error).toMatchObject({ code: 'EMBEDDER_UNAVAILABLE', retryAfterMs: 7000 })
    expect((error as Error).message).toMatch(/503: maintenance.*3 attempt\(s\); retry after 7 s/)
    expect(sleeps).toEqual([7000, 7000])
  })

  it('does not sit through a Retry-After longer than maxWaitMs: it reports it at once', async () => {
    fake.answer({ status: 429, headers: { 'retry-after': '3600' } })
    const error = await embedder({ maxWaitMs: 60_000 }).embed(['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect((error as EmbedderUnavailableError).retryAfterMs).toBe(3_600_000)
    expect(sleeps).toEqual([])
    expect(fake.requests).toHaveLength(1)
  })

  it('times out a silent service, retries, and reports it unavailable', async () => {
    fake.answer({ hang: true }, { hang: true })
    const error = await embedder({ timeoutMs: 100, maxRetries: 1, backoffMs: 50 }).embed(['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect((error as Error).message).toMatch(/no answer within 100 ms/)
    expect(fake.requests).toHaveLength(2)
  })

  it('reports a service that is down as unavailable, not as a permanent error', async () => {
    const port = await closedPort()
    const error = await embedder({ url: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).embed(['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderUnavailableError)
    expect((error as Error).message).toMatch(/cannot reach .*ECONNREFUSED/)
    expect((error as EmbedderUnavailableError).retryAfterMs).toBeGreaterThan(0)
  })

  it('reports a 4xx refusal as a permanent EmbedderError with the service message, without retrying', async () => {
    fake.answer({ status: 401, body: { error: { message: 'Incorrect API key provided' } } })
    const error = await embedder().embed(['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderError)
    expect(error).not.toBeInstanceOf(EmbedderUnavailableError)
    expect(error).toMatchObject({ code: 'EMBEDDER_REJECTED' })
    expect((error as Error).message).toMatch(/answered 401: Incorrect API key provided/)
    expect(fake.requests).toHaveLength(1)
  })

  it.each([
    ['not JSON', { body: '<html>oops</html>' }, /expected JSON, received "<html>oops<\/html>"/],
    ['no data array', { body: { object: 'list' } }, /data: expected an array, received nothing/],
    ['too few embeddings', { body: { data: [] } }, /data: expected 2 embeddings, received 0/],
    ['a non-numeric embedding', { body: { data: [{ index: 0, embedding: ['x'] }, { index: 1, embedding: [1] }] } }, /data\[0\]\.embedding: expected a non-empty array of finite numbers/],
    ['a repeated index', { body: { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] } }, /data\[1\]\.index: expected a distinct integer from 0 to 1, received 0/],
  ])('refuses a malformed answer (%s) with a clear EmbedderError', async (_, answer, message) => {
    fake.answer(answer)
    const error = await embedder().embed(['a', 'b']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbedderError)
    expect(error).toMatchObject({ code: 'EMBEDDER_BAD_RESPONSE' })
    expect((error as Error).message).toMatch(message)
  })

  it("stops when the caller's signal aborts, with the caller's reason", async () => {
    fake.answer({ hang: true })
    const controller = new AbortController()
    const pending = embedder({ timeoutMs: 10_000 }).embed(['a'], { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('caller gave up')), 20)
    await expect(pending).rejects.toThrow('caller gave up')
  })

  it('puts the query or passage prefix before each text, and names the prefixes in its id', async () => {
    const instance = embedder({ queryPrefix: 'search_query: ', passagePrefix: 'search_document: ' })
    await instance.embed(['how to return'], { purpose: 'query' })
    await instance.embed(['Returns within 30 days.'])
    expect(fake.requests.map((r) => r.body.input)).toEqual([['search_query: how to return'], ['search_document: Returns within 30 days.']])
    expect(instance.id).toBe('openai:test-model:8:prefixes=["search_query: ","search_document: "]')
  })

  it('sends a space for an empty text, which some services refuse', async () => {
    await embedder().embed(['', 'x'])
    expect(fake.requests[0]!.body.input).toEqual([' ', 'x'])
  })

  it('refuses bad options naming the field', () => {
    expect(() => createOpenAiCompatibleEmbedder({ url: 'localhost:11434', model: 'm' })).toThrow(/url: expected an http\(s\) base URL.*received "localhost:11434"/)
    expect(() => createOpenAiCompatibleEmbedder({ url: fake.url, model: ' ' })).toThrow(/model: expected a model name/)
    expect(() => createOpenAiCompatibleEmbedder({ url: fake.url, model: 'm', batchSize: 0 })).toThrow(/batchSize: expected an integer ≥ 1, received 0/)
  })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
