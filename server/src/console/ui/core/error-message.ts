import { isApiError } from 'botshelf/client'

/**
 * The text the console shows for a failed call: the service's own message with its error type
 * (`Forbidden: ...`), or the browser's reason when the call never got an answer.
 *
 * @example
 * ```ts
 * errorMessage(new Error('Failed to fetch')) // 'Failed to fetch'
 * ```
 */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return `${error.type}: ${error.message}`
  if (error instanceof Error) return error.message
  return String(error)
}
