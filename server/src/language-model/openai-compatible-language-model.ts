import { systemClock, type Clock } from 'botshelf/api'
import { postJsonOnce, retryTransient } from '../platform/http-retry/index.js'
import type { ChatAnswer, ChatRequest, LanguageModel } from './language-model.js'
import { LanguageModelError, LanguageModelUnavailableError } from './language-model-errors.js'

/**
 * How to reach an OpenAI-compatible `/chat/completions` endpoint (OpenAI, gateways, Ollama, vLLM, llama.cpp).
 *
 * @example
 * ```ts
 * const options: OpenAiCompatibleLanguageModelOptions = { url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' }
 * ```
 */
export interface OpenAiCompatibleLanguageModelOptions {
  /** The API's base URL; botshelf POSTs to `{url}/chat/completions`, e.g. `{ url: 'https://api.openai.com/v1' }`. */
  url: string
  /** The model used when a request names none, e.g. `{ model: 'gpt-4o-mini' }`. */
  model?: string
  /** Sent as `Authorization: Bearer <apiKey>` when given, e.g. `{ apiKey: process.env.OPENAI_API_KEY }`. */
  apiKey?: string
  /** Deadline of one HTTP attempt in milliseconds (default 60000; a request's `timeoutMs` wins), e.g. `{ timeoutMs: 20_000 }`. */
  timeoutMs?: number
  /** Retries after a 429, a 5xx, a timeout or a refused connection (default 2), e.g. `{ maxRetries: 0 }`. */
  maxRetries?: number
  /** First backoff in milliseconds when the service sends no `Retry-After`, doubled per retry (default 500), e.g. `{ backoffMs: 100 }`. */
  backoffMs?: number
  /**
   * The longest wait honoured inside one call (default 30000). A longer `Retry-After` ends the call at once with
   * `LanguageModelUnavailableError` carrying it, so a job can reschedule instead of holding a slot, e.g. `{ maxWaitMs: 5_000 }`.
   */
  maxWaitMs?: number
  /** The fetch implementation (default the global one), e.g. `{ fetch: myProxyFetch }`. */
  fetch?: typeof fetch
  /** Waits between retries (default a real timer); tests pass an instant one, e.g. `{ sleep: async () => {} }`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** The clock that dates an HTTP-date `Retry-After`, e.g. `{ now: () => new Date('2026-01-01') }`. */
  now?: Clock
}

const defaults = { timeoutMs: 60_000, maxRetries: 2, backoffMs: 500, maxWaitMs: 30_000 }

/**
 * A `LanguageModel` over any OpenAI-compatible `/chat/completions` endpoint. 429, 408, 5xx, timeouts and refused
 * connections are retried with exponential backoff honouring `Retry-After`, then reported as
 * `LanguageModelUnavailableError` (with `retryAfterMs`); other 4xx are `LANGUAGE_MODEL_REJECTED`, answers that are
 * not a completion `LANGUAGE_MODEL_BAD_RESPONSE`.
 *
 * @example
 * ```ts
 * const model = createOpenAiCompatibleLanguageModel({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' })
 * const answer = await model.complete({ messages: [{ role: 'user', content: 'Capital of France? One word.' }], temperature: 0 })
 * console.log(answer.text) // "Paris"
 * ```
 */
export function createOpenAiCompatibleLanguageModel(options: OpenAiCompatibleLanguageModelOptions): LanguageModel & { readonly label: string } {
  const settings = { ...defaults, ...withoutUndefined(options) }
  checkOptions(settings)
  const endpoint = `${settings.url.replace(/\/+$/, '')}/chat/completions`
  const now = options.now ?? systemClock

  return {
    label: `${settings.model ?? 'the model each request names'} via ${endpoint}`,
    async complete(request: ChatRequest): Promise<ChatAnswer> {
      const model = request.model ?? settings.model
      if (model === undefined || model.trim() === '') {
        throw new LanguageModelError('LANGUAGE_MODEL_NOT_CONFIGURED', 'no model named: the request names none and none is configured (--llm-model / BOTSHELF_LLM_MODEL)')
      }
      const timeoutMs = request.timeoutMs ?? settings.timeoutMs
      const body = requestBody(request, model)
      const answer = await retryTransient(
        () => postJsonOnce(endpoint, body, { apiKey: settings.apiKey, timeoutMs, signal: request.signal, fetch: settings.fetch, now }),
        { maxRetries: settings.maxRetries, backoffMs: settings.backoffMs, maxWaitMs: settings.maxWaitMs, sleep: settings.sleep },
        request.signal,
        ({ failure, attempts, retryAfterMs }) =>
          new LanguageModelUnavailableError(
            `the language model is unavailable (${failure.reason}) after ${attempts} attempt(s); retry after ${Math.ceil(retryAfterMs / 1000)} s`,
            retryAfterMs,
            { attempts, model },
          ),
      )
      if (answer.status < 200 || answer.status >= 300) {
        throw new LanguageModelError('LANGUAGE_MODEL_REJECTED', `the language model refused the request: ${endpoint} answered ${answer.status}${answer.message}`, { status: answer.status, model })
      }
      return parseCompletion(answer.body, model)
    },
  }
}

/** The OpenAI request body of a `ChatRequest`. */
function requestBody(request: ChatRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages }
  if (request.responseFormat?.type === 'json_schema') {
    body.response_format = { type: 'json_schema', json_schema: { name: request.responseFormat.name, schema: request.responseFormat.schema } }
  }
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens
  if (request.temperature !== undefined) body.temperature = request.temperature
  return body
}

/** The first choice's text, the model and the usage of a completion, or `LANGUAGE_MODEL_BAD_RESPONSE` naming what is wrong. */
function parseCompletion(text: string, requested: string): ChatAnswer {
  const bad = (why: string) => new LanguageModelError('LANGUAGE_MODEL_BAD_RESPONSE', `the language model answered a malformed completion: ${why}`, { model: requested })
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw bad(`expected JSON, received ${JSON.stringify(text.slice(0, 80))}`)
  }
  const completion = json as { choices?: unknown; model?: unknown; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null
  const choices = completion?.choices
  if (!Array.isArray(choices) || choices.length === 0) throw bad(`choices: expected a non-empty array, received ${describe(choices)}`)
  const message = (choices[0] as { message?: { content?: unknown; refusal?: unknown } } | null)?.message
  if (typeof message?.refusal === 'string' && message.refusal !== '') {
    throw new LanguageModelError('LANGUAGE_MODEL_REJECTED', `the language model declined to answer: ${message.refusal.slice(0, 300)}`, { model: requested })
  }
  if (typeof message?.content !== 'string') throw bad(`choices[0].message.content: expected a string, received ${describe(message?.content)}`)
  const answer: ChatAnswer = { text: message.content, model: typeof completion?.model === 'string' && completion.model !== '' ? completion.model : requested }
  const input = completion?.usage?.prompt_tokens
  const output = completion?.usage?.completion_tokens
  if (typeof input === 'number' && typeof output === 'number') answer.usage = { inputTokens: input, outputTokens: output }
  return answer
}

function checkOptions(settings: OpenAiCompatibleLanguageModelOptions & typeof defaults): void {
  const invalid = (field: string, expected: string, received: unknown) =>
    new LanguageModelError('LANGUAGE_MODEL_INVALID_OPTIONS', `${field}: expected ${expected}, received ${describe(received)}`)
  if (typeof settings.url !== 'string' || !/^https?:\/\/[^/]/i.test(settings.url) || !URL.canParse(settings.url)) {
    throw invalid('url', 'an http(s) base URL such as "http://127.0.0.1:11434/v1"', settings.url)
  }
  if (settings.model !== undefined && (typeof settings.model !== 'string' || settings.model.trim() === '')) throw invalid('model', 'a model name', settings.model)
  for (const [field, min] of [['timeoutMs', 1], ['maxRetries', 0], ['backoffMs', 0], ['maxWaitMs', 0]] as const) {
    const value = settings[field]
    if (!Number.isInteger(value) || value < min) throw invalid(field, `an integer ≥ ${min}`, value)
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return `an array of ${value.length}`
  const text = JSON.stringify(value)
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 60)}…` : text
}
