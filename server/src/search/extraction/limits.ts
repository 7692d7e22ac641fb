import { ExtractionError } from './extraction-error.js'

/** The bounds one extraction runs under; every field has a default (`DEFAULT_EXTRACTION_LIMITS`). */
export interface ExtractionLimits {
  /** Wall-clock time for one document, after which its worker is terminated, e.g. `{ timeMs: 30_000 }`. */
  timeMs: number
  /** Heap of the worker thread (V8 old generation), in MB, e.g. `{ memoryMb: 256 }`. */
  memoryMb: number
  /** Most pages (PDF pages, slides, sheets) a document may have, e.g. `{ maxPages: 2000 }`. */
  maxPages: number
  /** Most characters of passage text one document may produce, e.g. `{ maxOutputChars: 20_000_000 }`. */
  maxOutputChars: number
  /** Largest document accepted, in bytes, e.g. `{ maxInputBytes: 95 * 1024 * 1024 }`. */
  maxInputBytes: number
  /** Most entries an OOXML (zip) document may hold, e.g. `{ maxZipEntries: 10_000 }`. */
  maxZipEntries: number
  /** Most bytes the entries of an OOXML document may inflate to, counted while inflating, e.g. `{ maxInflatedBytes: 100 * 1024 * 1024 }`. */
  maxInflatedBytes: number
  /** Deepest element nesting accepted in HTML (and DOCX, read as HTML), e.g. `{ maxHtmlDepth: 512 }`. */
  maxHtmlDepth: number
}

/**
 * The limits used when the caller sets none.
 *
 * @example
 * ```ts
 * DEFAULT_EXTRACTION_LIMITS.maxPages // 2000
 * ```
 */
export const DEFAULT_EXTRACTION_LIMITS: Readonly<ExtractionLimits> = Object.freeze({
  timeMs: 30_000,
  memoryMb: 256,
  maxPages: 2000,
  maxOutputChars: 20 * 1024 * 1024,
  maxInputBytes: 95 * 1024 * 1024,
  maxZipEntries: 10_000,
  maxInflatedBytes: 100 * 1024 * 1024,
  maxHtmlDepth: 512,
})

/**
 * The limits with the caller's overrides applied, each checked to be a positive integer.
 *
 * @example
 * ```ts
 * resolveLimits({ maxPages: 10 }).maxPages // 10
 * ```
 */
export function resolveLimits(overrides: Partial<ExtractionLimits> | undefined): ExtractionLimits {
  const limits: ExtractionLimits = { ...DEFAULT_EXTRACTION_LIMITS }
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (!(name in limits)) throw new ExtractionError('INVALID_OPTIONS', `limits.${name}: expected one of ${Object.keys(limits).join(', ')}, received an unknown limit`)
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new ExtractionError('INVALID_OPTIONS', `limits.${name}: expected a positive integer, received ${JSON.stringify(value)}`)
    }
    limits[name as keyof ExtractionLimits] = value
  }
  return limits
}
