import { ExtractionError } from '../extraction-error.js'

/** The default `maximumChunkLength`, in characters (the wire's `indexing.configuration.chunking`). */
export const DEFAULT_MAXIMUM_CHUNK_LENGTH = 1000
/** The range the wire allows for `maximumChunkLength`. */
export const MAXIMUM_CHUNK_LENGTH_RANGE = { min: 100, max: 5000 } as const

/**
 * The chunk length to use: the default when none is given, else an integer within 100..5000.
 *
 * @example
 * ```ts
 * resolveMaximumChunkLength(undefined) // 1000
 * ```
 */
export function resolveMaximumChunkLength(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAXIMUM_CHUNK_LENGTH
  const { min, max } = MAXIMUM_CHUNK_LENGTH_RANGE
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ExtractionError('INVALID_OPTIONS', `maximumChunkLength: expected an integer from ${min} to ${max}, received ${JSON.stringify(value)}`)
  }
  return value
}
