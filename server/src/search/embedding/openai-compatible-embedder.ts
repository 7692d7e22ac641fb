import { systemClock, type Clock } from 'botshelf/api'
import type { EmbedOptions, Embedder } from './embedder.js'
import { EmbedderError, EmbedderUnavailableError } from './embedder-errors.js'
import { postJsonOnce, retryTransient } from '../../platform/http-retry/index.js'
import { normalizeInPlace } from './vector-math.js'

/**
 * How to reach an OpenAI-compatible `/embeddings` endpoint (OpenAI, gateways, Ollama, vLLM,
 * text-embeddings-inference).
 *
 * @example
 * ```ts
 * const options: OpenAiCompatibleEmbedderOptions = { url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' }
 * ```
 */
export interface OpenAiCompatibleEmbedderOptions {
  /** The API's base URL; botshelf POSTs to `{url}/embeddings`, e.g. `{ url: 'https://api.openai.com/v1' }`. */
  url: string
  /** The model name sent with every request, e.g. `{ model: 'text-embedding-3-small' }`. */
  model: string
  /** Sent as `Authorization: Bearer <apiKey>` when given, e.g. `{ apiKey: process.env.OPENAI_API_KEY }`. */
  apiKey?: string
  /** Texts per request (default 64), e.g. `{ batchSize: 16 }` for a small local server. */
  batchSize?: number
  /** Deadline of one HTTP attempt in milliseconds (default 30000), e.g. `{ timeoutMs: 10_000 }`. */
  timeoutMs?: number
  /** Retries after a 429, a 5xx, a timeout or a refused connection (default 3), e.g. `{ maxRetries: 0 }`. */
  maxRetries?: number
  /** First backoff in milliseconds when the service sends no `Retry-After`, doubled per retry (default 500), e.g. `{ backoffMs: 100 }`. */
  backoffMs?: number
  /**
   * The longest wait honoured inside one call (default 60000). A longer `Retry-After` ends the call at once with
   * `EmbedderUnavailableError` carrying it, so a job can reschedule instead of holding a slot, e.g. `{ maxWaitMs: 5_000 }`.
   */
  maxWaitMs?: number
  /**
   * Put before every query text, for models trained with one (nomic-embed-text: `search_query: `, e5: `query: `),
   * e.g. `{ queryPrefix: 'search_query: ' }`.
   */
  queryPrefix?: string
  /**
   * Put before every passage text, e.g. `{ passagePrefix: 'search_document: ' }`. It changes the stored vectors, so it
   * is part of the `id`.
   */
  passagePrefix?: string
  /** The fetch implementation (default the global one), e.g. `{ fetch: myProxyFetch }`. */
  fetch?: typeof fetch
  /** Waits between retries (default a real timer); tests pass an instant one, e.g. `{ sleep: async () => {} }`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** The clock that dates an HTTP-date `Retry-After`, e.g. `{ now: () => new Date('2026-01-01') }`. */
  now?: Clock
}

const defaults = { batchSize: 64, timeoutMs: 30_000, maxRetries: 3, backoffMs: 500, maxWaitMs: 60_000 }

/**
 * An `Embedder` over any OpenAI-compatible `/embeddings` endpoint. Texts are sent in batches; 429, 5xx, timeouts
 * and refused connections are retried with exponential backoff honouring `Retry-After`, then reported as
 * `EmbedderUnavailableError` (with `retryAfterMs`); refusals and malformed answers are `EmbedderError`s. The
 * dimension is learned from the first answer, and the `id` (`openai:<model>:<dimension>`) is known from then on.
 *
 * @example
 * ```ts
 * const embedder = createOpenAiCompatibleEmbedder({ url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' })
 * const vectors = await embedder.embed(['refund policy', 'opening hours'])
 * console.log(embedder.id) // "openai:nomic-embed-text:768"
 * ```
 */
export function createOpenAiCompatibleEmbedder(options: OpenAiCompatibleEmbedderOptions): Embedder {
  const settings = { ...defaults, ...withoutUndefined(options), url: options.url, model: options.model }
  checkOptions(settings)
  const endpoint = `${settings.url.replace(/\/+$/, '')}/embeddings`
  const fetchImpl = options.fetch ?? globalThis.fetch
  const sleep = options.sleep
  const now = options.now ?? systemClock
  let dimension: number | undefined
  const queryPrefix = options.queryPrefix ?? ''
  const passagePrefix = options.passagePrefix ?? ''
  // Prefixes change the vectors: an index built without them must not pass for one built with them.
  const prefixTag = queryPrefix || passagePrefix ? `:prefixes=${JSON.stringify([queryPrefix, passagePrefix])}` : ''

  async function embedBatch(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const answer = await retryTransient(
      () => postJsonOnce(endpoint, { model: settings.model, input, encoding_format: 'float' }, { apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, signal, fetch: fetchImpl, now }),
      { maxRetries: settings.maxRetries, backoffMs: settings.backoffMs, maxWaitMs: settings.maxWaitMs, sleep },
      signal,
      ({ failure, attempts, retryAfterMs }) =>
        new EmbedderUnavailableError(
          `the embeddings service is unavailable (${failure.reason}) after ${attempts} attempt(s); retry after ${Math.ceil(retryAfterMs / 1000)} s`,
          retryAfterMs,
          { attempts, model: settings.model },
        ),
    )
    if (answer.status < 200 || answer.status >= 300) {
      throw new EmbedderError('EMBEDDER_REJECTED', `the embeddings service refused the request: ${endpoint} answered ${answer.status}${answer.message}`, { status: answer.status, model: settings.model })
    }
    return parseEmbeddings(answer.body, input.length)
  }

  function parseEmbeddings(body: string, expected: number): Float32Array[] {
    const bad = (why: string) => new EmbedderError('EMBEDDER_BAD_RESPONSE', `the embeddings service answered a malformed response: ${why}`, { model: settings.model })
    let json: unknown
    try {
      json = JSON.parse(body)
    } catch {
      throw bad(`expected JSON, received ${JSON.stringify(body.slice(0, 80))}`)
    }
    const data = (json as { data?: unknown } | null)?.data
    if (!Array.isArray(data)) throw bad(`data: expected an array, received ${describe(data)}`)
    if (data.length !== expected) throw bad(`data: expected ${expected} embeddings, received ${data.length}`)
    const vectors: Float32Array[] = new Array(expected)
    data.forEach((item: unknown, position) => {
      const index = (item as { index?: unknown } | null)?.index ?? position
      const embedding = (item as { embedding?: unknown } | null)?.embedding
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= expected || vectors[index]) {
        throw bad(`data[${position}].index: expected a distinct integer from 0 to ${expected - 1}, received ${describe(index)}`)
      }
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw bad(`data[${position}].embedding: expected a non-empty array of finite numbers, received ${describe(embedding)}`)
      }
      if (dimension !== undefined && embedding.length !== dimension) {
        throw bad(`data[${position}].embedding: expected ${dimension} numbers (the dimension learned earlier), received ${embedding.length}`)
      }
      dimension ??= embedding.length
      vectors[index] = normalizeInPlace(Float32Array.from(embedding as number[]))
    })
    return vectors
  }

  return {
    get id(): string {
      if (dimension === undefined) {
        throw new EmbedderError('EMBEDDER_INVALID_OPTIONS', `the id of the embedder for model "${settings.model}" is known once its dimension is: await embedder.dimensions() first`)
      }
      return `openai:${settings.model}:${dimension}${prefixTag}`
    },
    label: `${settings.model} via ${endpoint}`,
    async dimensions() {
      if (dimension === undefined) await embedBatch(['dimension probe'], undefined)
      return dimension!
    },
    async embed(texts: readonly string[], embedOptions?: EmbedOptions) {
      const vectors: Float32Array[] = []
      for (let start = 0; start < texts.length; start += settings.batchSize) {
        // Some services refuse an empty string; a space embeds to the same "no content" neighbourhood.
        const prefix = embedOptions?.purpose === 'query' ? queryPrefix : passagePrefix
        const batch = texts.slice(start, start + settings.batchSize).map((text) => prefix + (text.trim() === '' ? ' ' : text))
        vectors.push(...(await embedBatch(batch, embedOptions?.signal)))
      }
      return vectors
    },
  }
}

function checkOptions(settings: Required<Omit<OpenAiCompatibleEmbedderOptions, 'apiKey' | 'fetch' | 'sleep' | 'now' | 'queryPrefix' | 'passagePrefix'>>): void {
  const invalid = (field: string, expected: string, received: unknown) =>
    new EmbedderError('EMBEDDER_INVALID_OPTIONS', `${field}: expected ${expected}, received ${describe(received)}`)
  let url: URL | undefined
  try {
    url = new URL(settings.url)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalid('url', 'an http(s) base URL such as "http://127.0.0.1:11434/v1"', settings.url)
  if (typeof settings.model !== 'string' || settings.model.trim() === '') throw invalid('model', 'a model name', settings.model)
  for (const [field, min] of [['batchSize', 1], ['timeoutMs', 1], ['maxRetries', 0], ['backoffMs', 0], ['maxWaitMs', 0]] as const) {
    const value = settings[field]
    if (!Number.isInteger(value) || value < min) throw invalid(field, `an integer ≥ ${min}`, value)
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return `an array of ${value.length}`
  const text = JSON.stringify(value)
  return text === undefined ? typeof value : text.length > 60 ? `${text.slice(0, 60)}…` : text
}
