import type { PassageSubtype, StoredPassageType } from '../../store/index.js'

/** A passage as `setFilePassages` gives it (wire `type` defaults to `paragraph`). */
export interface GivenPassage {
  content: string
  type?: Exclude<PassageSubtype, 'page'>
  pageNumber?: number
}

/** A passage ready to embed and store: its kind, page and the headings above it. */
export interface PreparedPassage {
  content: string
  /** `chunk` when absent; `summary` and `image` passages are written by a language model (decision 1435). */
  type?: StoredPassageType
  subtype: PassageSubtype
  pageNumber?: number
  breadcrumb: string[]
}

/**
 * Given passages in document order, with breadcrumbs derived from the titles and subtitles before each one (a
 * title starts a new section, a subtitle a subsection of it).
 *
 * @example
 * ```ts
 * prepareGivenPassages([{ content: 'Guide', type: 'title' }, { content: 'Step one' }])
 * // [{ content: 'Guide', subtype: 'title', breadcrumb: [] }, { content: 'Step one', subtype: 'paragraph', breadcrumb: ['Guide'] }]
 * ```
 */
export function prepareGivenPassages(passages: ReadonlyArray<GivenPassage>): PreparedPassage[] {
  let title: string | undefined
  let subtitle: string | undefined
  return passages.map((passage) => {
    const subtype = passage.type ?? 'paragraph'
    const heading = passage.content.replace(/^#+\s*/, '').trim()
    const breadcrumb = subtype === 'title' ? [] : subtype === 'subtitle' ? (title ? [title] : []) : [title, subtitle].filter((part): part is string => part !== undefined)
    if (subtype === 'title') {
      title = heading
      subtitle = undefined
    } else if (subtype === 'subtitle') subtitle = heading
    return { content: passage.content, subtype, ...(passage.pageNumber !== undefined ? { pageNumber: passage.pageNumber } : {}), breadcrumb }
  })
}
