import { zipSync } from 'fflate'
import { ExtractionError } from '../extraction-error.js'
import type { ExtractionLimits } from '../limits.js'
import { readZip } from '../zip/read-zip.js'

/**
 * An OOXML document checked and rebuilt for a library that unzips on its own: the entries are inflated here under
 * the zip-bomb bounds (`readZip`), the part that makes it this kind of document must be there, and the entries are
 * zipped again without compression, so the library reads exactly what was checked and inflates nothing.
 *
 * @example
 * ```ts
 * const buffer = checkedOoxml(bytes, 'report.docx', limits, 'word/document.xml', 'a Word document')
 * ```
 */
export function checkedOoxml(bytes: Uint8Array, key: string, limits: ExtractionLimits, requiredPart: string, kind: string): Buffer {
  const entries = readZip(bytes, key, { maxEntries: limits.maxZipEntries, maxInflatedBytes: limits.maxInflatedBytes })
  if (!entries.has(requiredPart)) throw new ExtractionError('CORRUPT_DOCUMENT', `${key} is not ${kind}: it has no ${requiredPart}`)
  const stored = zipSync(Object.fromEntries(entries), { level: 0 })
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
}
