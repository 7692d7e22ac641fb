import { fileRowToRecord, type FileRow } from '../../files/file-row.js'
import type { FileRecord } from '../../files/types.js'

/**
 * The record of a files row, frozen all the way down (tags, metadata at any depth, policies, owner, indexing
 * configuration): the records `FileRecordCache` keeps are handed to every caller that asks, so a caller that
 * mutates one must fail loudly (a `TypeError` in strict code) instead of changing what the next caller reads.
 *
 * @example
 * ```ts
 * const file = frozenFileRecord(row)
 * file.tags.draft = 'yes' // TypeError: Cannot add property draft, object is not extensible
 * ```
 */
export function frozenFileRecord(row: FileRow): FileRecord {
  return deepFreeze(fileRowToRecord(row))
}

// Parsed JSON only: plain objects and arrays, no cycles.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
