import { LanguageModelError, LanguageModelUnavailableError, type ChatRequest, type LanguageModel } from '../../language-model/index.js'
import { asksForJson, convertAnswer } from './answer-conversion.js'
import type { ComputedColumn } from './computed-column.js'
import type { Computation } from './computation.js'
import { renderPrompt } from './prompt-template.js'

/** Time limit of one model call of an AI column, in milliseconds. */
export const AI_COMPUTATION_TIMEOUT_MS = 60_000

/**
 * The chat request of an AI column for one row: the column's prompt with `{{columns}}` filled in, the answer asked
 * as JSON of the column's schema for objects and arrays, as plain text otherwise.
 *
 * @example
 * ```ts
 * aiRequest(column, { review: 'Great phone' }).messages[1].content // 'Is this review positive? Great phone'
 * ```
 */
export function aiRequest(column: ComputedColumn, row: Readonly<Record<string, unknown>>): ChatRequest {
  const type = column.schema.format === 'date-time' ? 'a date and time (ISO 8601)' : column.schema.enum ? `one of: ${column.schema.enum.join(', ')}` : `a ${column.schema.type}`
  const request: ChatRequest = {
    messages: [
      { role: 'system', content: `You fill the "${column.name}" column of a table row. Answer with the value only: ${type}, no explanation.` },
      { role: 'user', content: renderPrompt(column.prompt ?? '', row) },
    ],
    temperature: 0,
    timeoutMs: AI_COMPUTATION_TIMEOUT_MS,
  }
  if (column.model !== undefined) request.model = column.model
  if (asksForJson(column)) {
    request.responseFormat = { type: 'json_schema', name: column.name, schema: { type: 'object', properties: { value: column.schema }, required: ['value'], additionalProperties: false } }
  }
  return request
}

/**
 * Computes an AI column's value for one row: asks the model and converts its answer to the column's type. An
 * unreachable model is `unavailable` (the cell stays pending and is tried again after `retryAfterMs`); a refusal, a
 * missing model or an answer that does not fit is a failure with the reason.
 *
 * @example
 * ```ts
 * const outcome = await computeWithModel(services.languageModel, column, row)
 * ```
 */
export async function computeWithModel(model: LanguageModel, column: ComputedColumn, row: Readonly<Record<string, unknown>>): Promise<Computation> {
  try {
    const answer = await model.complete(aiRequest(column, row))
    const converted = convertAnswer(answer.text, column.schema)
    return converted.ok ? { kind: 'value', value: converted.value, updatedBy: `ai:${answer.model}` } : { kind: 'failed', reason: converted.reason, updatedBy: `ai:${answer.model}` }
  } catch (error) {
    if (error instanceof LanguageModelUnavailableError) return { kind: 'unavailable', reason: error.message, retryAfterMs: error.retryAfterMs }
    if (error instanceof LanguageModelError) return { kind: 'failed', reason: error.message, updatedBy: 'ai' }
    throw error
  }
}
