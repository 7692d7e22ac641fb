import { z } from 'zod'
import { errorTypeNames, type ErrorType } from './error-types.js'

/**
 * The JSON body of every non-2xx response: `{ id, code, type, message, metadata? }`, with the HTTP
 * status equal to `code` (docs/wire-format.md §3).
 *
 * @example
 * ```ts
 * ErrorBodySchema.parse({ id: 'err_20261121231934x1ADD090B', code: 404, type: 'ResourceNotFound', message: 'File "a.txt" not found' })
 * ```
 */
export const ErrorBodySchema = z.object({
  id: z.string(),
  code: z.number().int(),
  type: z.enum(errorTypeNames as [ErrorType, ...ErrorType[]]),
  message: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
})

/** The wire error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>

/**
 * Makes an error id in the format of the official client's generator:
 * `err_` + UTC `yyyyMMddHHmmss` + `x` + 8 uppercase hex characters.
 *
 * @example
 * ```ts
 * newErrorId(new Date('2026-11-21T23:19:34Z')) // 'err_20261121231934x1ADD090B' (random suffix)
 * ```
 */
export function newErrorId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  const bytes = new Uint8Array(4)
  globalThis.crypto.getRandomValues(bytes)
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase()
  return `err_${stamp}x${hex}`
}
