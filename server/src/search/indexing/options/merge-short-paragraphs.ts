import type { PreparedPassage } from '../given-passages.js'

/** Subtypes that hold running text, which `minimumParagraphLength` may merge. */
const MERGEABLE = new Set(['paragraph', 'list', 'blockquote', 'image'])

const sameSection = (a: PreparedPassage, b: PreparedPassage): boolean =>
  a.pageNumber === b.pageNumber && a.breadcrumb.length === b.breadcrumb.length && a.breadcrumb.every((part, index) => part === b.breadcrumb[index])

/**
 * `parsing.minimumParagraphLength`: a passage of running text shorter than `minimum` characters is merged into the
 * next one when that one is running text too, on the same page, under the same headings, and the two fit in
 * `maximumChunkLength` together (separated by a blank line). Headings, tables and code never merge; nothing is dropped.
 *
 * @example
 * ```ts
 * mergeShortParagraphs([{ content: 'Hi.', subtype: 'paragraph', breadcrumb: [] }, { content: 'Welcome aboard.', subtype: 'paragraph', breadcrumb: [] }], 50, 1000)
 * // [{ content: 'Hi.\n\nWelcome aboard.', subtype: 'paragraph', breadcrumb: [] }]
 * ```
 */
export function mergeShortParagraphs(passages: readonly PreparedPassage[], minimum: number, maximumChunkLength: number): PreparedPassage[] {
  const out: PreparedPassage[] = []
  let carried: PreparedPassage | undefined
  for (const passage of passages) {
    let current = passage
    if (carried) {
      const joined = `${carried.content}\n\n${passage.content}`
      if (MERGEABLE.has(passage.subtype) && sameSection(carried, passage) && joined.length <= maximumChunkLength) {
        current = { ...passage, content: joined, subtype: carried.content.length > passage.content.length ? carried.subtype : passage.subtype }
      } else out.push(carried)
      carried = undefined
    }
    if (MERGEABLE.has(current.subtype) && current.content.length < minimum) carried = current
    else out.push(current)
  }
  if (carried) out.push(carried)
  return out
}
