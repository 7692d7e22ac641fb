import { toReadableIssues, type Operation } from 'botshelf/api'
import type { AppServices } from '../env.js'
import { jsonText } from '../json-text.js'

/**
 * Step 5 of the request pipeline, the handler and its answer: runs the handler and gives the JSON text of its
 * answer (`operationAnswerText`). Both answer paths call it with the same handler.
 *
 * @example
 * ```ts
 * const text = await answerOperation(getFile, () => handler({ input, principal, services, baseUrl }), services)
 * ```
 */
export async function answerOperation(operation: Operation, run: () => unknown, services: AppServices): Promise<string> {
  return operationAnswerText(operation, await run(), services)
}

/**
 * The JSON text of an operation's answer; with the app's `checkResponses`, the answer is first validated against the
 * operation's response schema (a mismatch throws, and is answered as a logged 500).
 *
 * @example
 * ```ts
 * const text = operationAnswerText(getFile, { file }, services)
 * ```
 */
export function operationAnswerText(operation: Operation, output: unknown, services: AppServices): string {
  if (services.checkResponses) {
    const result = operation.response.safeParse(output)
    if (!result.success) {
      const issues = toReadableIssues(result.error.issues, output)
      throw new Error(`Response of ${operation.name} does not match its schema: ${issues.map((i) => i.message).join('; ')}`)
    }
  }
  return jsonText(output)
}
