import { createServer } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chatCompletion, lastUserText, startFakeChatServer } from './fake-chat-server.test-support.js'
import { LanguageModelError, LanguageModelUnavailableError } from './language-model-errors.js'
import { createOpenAiCompatibleLanguageModel, type OpenAiCompatibleLanguageModelOptions } from './openai-compatible-language-model.js'
import { unconfiguredLanguageModel } from './unconfigured-language-model.js'

let fake: Awaited<ReturnType<typeof startFakeChatServer>>
let sleeps: number[]

beforeEach(async () => {
  fake = await startFakeChatServer()
  sleeps = []
})
afterEach(async () => fake.close())

function model(options: Partial<OpenAiCompatibleLanguageModelOptions> = {}) {
  return createOpenAiCompatibleLanguageModel({
    url: fake.url,
    model: 'test-model',
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    ...options,
  })
}

const ask = { messages: [{ role: 'user' as const, content: 'Label: "I love it"' }] }

describe('createOpenAiCompatibleLanguageModel', () => {
  it('POSTs the messages to {url}/chat/completions with the bearer key and returns the first choice, model and usage', async () => {
    fake.reply((body) => chatCompletion(lastUserText(body).includes('love') ? 'positive' : 'negative', 'served-model'))
    const answer = await model({ apiKey: 'sk-secret', url: `${fake.url}/` }).complete({ ...ask, maxTokens: 5, temperature: 0 })
    expect(answer).toEqual({ text: 'positive', model: 'served-model', usage: { inputTokens: 10, outputTokens: 2 } })
    const [request] = fake.requests
    expect(request!.path).toBe('/v1/chat/completions')
    expect(request!.headers.authorization).toBe('Bearer sk-secret')
    expect(request!.body).toEqual({ model: 'test-model', messages: ask.messages, max_tokens: 5, temperature: 0 })
  })

  it('sends a JSON schema response format and image parts as OpenAI has them; a request model wins', async () => {
    const schema = { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] }
    const content = [
      { type: 'text' as const, text: 'What is in the picture?' },
      { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AAAA' } },
    ]
    await model().complete({ messages: [{ role: 'user', content }], model: 'vision-model', responseFormat: { type: 'json_schema', name: 'answer', schema } })
    expect(fake.requests[0]!.body).toEqual({
      model: 'vision-model',
      messages: [{ role: 'user', content }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    })
  })

  it('retries a 429 after its Retry-After, and backs off exponentially on 5xx without one', async () => {
    fake.answer({ status: 429, headers: { 'retry-after': '2' } }, { status: 500 }, { status: 502 })
    const answer = await model({ backoffMs: 100, maxRetries: 3 }).complete(ask)
    expect(answer.text).toBe('ok')
    expect(sleeps).toEqual([2000, 200, 400])
  })

  it('reports an outage as LanguageModelUnavailableError with retryAfterMs once retries run out', async () => {
    fake.outage({ status: 503, headers: { 'retry-after': '7' }, body: { error: { message: 'maintenance' } } })
    const error = await model({ maxRetries: 1 }).complete(ask).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LanguageModelUnavailableError)
    expect(error).toMatchObject({ code: 'LANGUAGE_MODEL_UNAVAILABLE', retryAfterMs: 7000 })
    expect((error as Error).message).toMatch(/503: maintenance.*2 attempt\(s\); retry after 7 s/)
    fake.outage(undefined)
    expect((await model().complete(ask)).text).toBe('ok')
  })

  it('does not sit through a Retry-After longer than maxWaitMs', async () => {
    fake.answer({ status: 429, headers: { 'retry-after': '3600' } })
    const error = await model({ maxWaitMs: 1000 }).complete(ask).catch((e: unknown) => e)
    expect((error as LanguageModelUnavailableError).retryAfterMs).toBe(3_600_000)
    expect(sleeps).toEqual([])
  })

  it('times out a silent service (the request deadline wins) and a down one is unavailable too', async () => {
    fake.answer({ hang: true })
    const slow = await model({ maxRetries: 0 }).complete({ ...ask, timeoutMs: 50 }).catch((e: unknown) => e)
    expect(slow).toBeInstanceOf(LanguageModelUnavailableError)
    expect((slow as Error).message).toMatch(/no answer within 50 ms/)
    const port = await closedPort()
    const down = await model({ url: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }).complete(ask).catch((e: unknown) => e)
    expect(down).toBeInstanceOf(LanguageModelUnavailableError)
    expect((down as Error).message).toMatch(/cannot reach .*ECONNREFUSED/)
  })

  it('stops at once when the caller aborts', async () => {
    fake.answer({ hang: true })
    const controller = new AbortController()
    const pending = model().complete({ ...ask, signal: controller.signal })
    controller.abort(new Error('caller gave up'))
    await expect(pending).rejects.toThrow('caller gave up')
  })

  it('reports a 4xx and a declined answer as refusals, not outages, without retrying', async () => {
    fake.answer({ status: 401, body: { error: { message: 'Incorrect API key provided' } } })
    const refused = await model().complete(ask).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(LanguageModelError)
    expect(refused).not.toBeInstanceOf(LanguageModelUnavailableError)
    expect(refused).toMatchObject({ code: 'LANGUAGE_MODEL_REJECTED' })
    expect((refused as Error).message).toMatch(/answered 401: Incorrect API key provided/)
    fake.answer({ body: { choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help with that' } }] } })
    await expect(model().complete(ask)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_REJECTED', message: expect.stringMatching(/declined to answer: I cannot help/) })
    expect(fake.requests).toHaveLength(2)
  })

  it.each([
    ['not JSON', { body: '<html>oops</html>' }, /expected JSON, received "<html>oops<\/html>"/],
    ['no choices', { body: { object: 'chat.completion' } }, /choices: expected a non-empty array, received nothing/],
    ['no content', { body: { choices: [{ message: { role: 'assistant' } }] } }, /choices\[0\]\.message\.content: expected a string, received nothing/],
  ])('refuses a malformed answer (%s) naming what is wrong', async (_, answer, message) => {
    fake.answer(answer)
    await expect(model().complete(ask)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_BAD_RESPONSE', message: expect.stringMatching(message) })
  })

  it('refuses bad options, and a request without any model', async () => {
    expect(() => createOpenAiCompatibleLanguageModel({ url: 'ftp://x' })).toThrow(/url: expected an http\(s\) base URL/)
    expect(() => createOpenAiCompatibleLanguageModel({ url: fake.url, maxRetries: -1 })).toThrow(/maxRetries: expected an integer ≥ 0, received -1/)
    await expect(createOpenAiCompatibleLanguageModel({ url: fake.url }).complete(ask)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_NOT_CONFIGURED' })
  })

  it('the unconfigured model fails at once naming the setting', async () => {
    await expect(unconfiguredLanguageModel.complete(ask)).rejects.toMatchObject({
      code: 'LANGUAGE_MODEL_NOT_CONFIGURED',
      message: expect.stringMatching(/--llm-url \(or BOTSHELF_LLM_URL\)/),
    })
  })
})

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
