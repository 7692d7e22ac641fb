/**
 * One part of a message: text, or an image by URL (an `https:` address or a `data:` URL) for models that see.
 *
 * @example
 * ```ts
 * const part: ChatContentPart = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0…' } }
 * ```
 */
export type ChatContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/**
 * One message of a conversation, as OpenAI's chat API has it.
 *
 * @example
 * ```ts
 * const message: ChatMessage = { role: 'user', content: 'Label this review: "great phone"' }
 * ```
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string | readonly ChatContentPart[]
}

/**
 * One completion asked of a language model.
 *
 * @example
 * ```ts
 * const request: ChatRequest = {
 *   messages: [{ role: 'user', content: 'Is "great phone" positive? Answer true or false.' }],
 *   responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { value: { type: 'boolean' } } } },
 *   maxTokens: 50,
 *   timeoutMs: 20_000,
 * }
 * ```
 */
export interface ChatRequest {
  /** The conversation, oldest first. */
  messages: readonly ChatMessage[]
  /** The model to use; the adapter's configured model when absent. */
  model?: string
  /** Plain text (the default), or JSON matching `schema` (OpenAI's structured outputs). */
  responseFormat?: { type: 'text' } | { type: 'json_schema'; name: string; schema: Record<string, unknown> }
  /** Most tokens to generate. */
  maxTokens?: number
  /** Sampling temperature (0 for the most repeatable answers). */
  temperature?: number
  /** Aborts the call, its retries and the waits between them. */
  signal?: AbortSignal
  /** Deadline of one HTTP attempt in milliseconds (overrides the adapter's). */
  timeoutMs?: number
}

/**
 * What the model answered.
 *
 * @example
 * ```ts
 * const answer: ChatAnswer = { text: 'positive', model: 'gpt-4o-mini', usage: { inputTokens: 21, outputTokens: 1 } }
 * ```
 */
export interface ChatAnswer {
  /** The text of the first choice (JSON text when a `json_schema` format was asked). */
  text: string
  /** The model that answered, as the service names it. */
  model: string
  /** Tokens read and written, when the service says. */
  usage?: { inputTokens: number; outputTokens: number }
}

/**
 * The language-model port: one chat completion at a time. Failures are `LanguageModelError`s:
 * `LanguageModelUnavailableError` (down, slow, rate limited: try again after `retryAfterMs`) or a refusal that
 * will not change (`LANGUAGE_MODEL_REJECTED`, `LANGUAGE_MODEL_BAD_RESPONSE`, `LANGUAGE_MODEL_NOT_CONFIGURED`).
 *
 * @example
 * ```ts
 * const model = createOpenAiCompatibleLanguageModel({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.2' })
 * const { text } = await model.complete({ messages: [{ role: 'user', content: 'Say hi' }] })
 * ```
 */
export interface LanguageModel {
  complete(request: ChatRequest): Promise<ChatAnswer>
}
