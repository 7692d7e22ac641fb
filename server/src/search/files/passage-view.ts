import type { Passage } from 'botshelf/api'
import type { PassageRecord } from '../../store/index.js'

/**
 * The wire `meta` of a stored passage: its type (a chunk, a summary, an image caption), subtype, page and position.
 *
 * @example
 * ```ts
 * passageMeta(record) // { type: 'chunk', subtype: 'paragraph', position: 3 }
 * ```
 */
export function passageMeta(record: PassageRecord): Passage['meta'] {
  return {
    type: record.type,
    subtype: record.subtype,
    ...(record.pageNumber !== null ? { pageNumber: record.pageNumber } : {}),
    position: record.position,
  }
}

/**
 * The wire Passage of `listFilePassages`.
 *
 * @example
 * ```ts
 * toWirePassage(record) // { id, content, meta: { type: 'chunk', subtype: 'title', position: 0 } }
 * ```
 */
export function toWirePassage(record: PassageRecord): Passage {
  return { id: record.id, content: record.content, meta: passageMeta(record) }
}
