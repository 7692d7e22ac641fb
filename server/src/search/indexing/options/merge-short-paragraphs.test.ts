import { describe, expect, it } from 'vitest'
import type { PreparedPassage } from '../given-passages.js'
import { mergeShortParagraphs } from './merge-short-paragraphs.js'

const p = (content: string, extra: Partial<PreparedPassage> = {}): PreparedPassage => ({ content, subtype: 'paragraph', breadcrumb: ['Guide'], ...extra })

describe('mergeShortParagraphs (parsing.minimumParagraphLength)', () => {
  it('merges a short paragraph into the next one, chaining several short ones', () => {
    const out = mergeShortParagraphs([p('One.'), p('Two.'), p('A paragraph long enough to stand alone here.')], 20, 1000)
    expect(out).toEqual([p('One.\n\nTwo.\n\nA paragraph long enough to stand alone here.')])
  })

  it('never merges across headings, pages, sections, tables or past the chunk bound; nothing is dropped', () => {
    const title = p('Setup', { subtype: 'title', breadcrumb: [] })
    const input = [p('Short.'), title, p('Tiny.', { breadcrumb: ['Setup'] }), p('| a |', { subtype: 'table', breadcrumb: ['Setup'] }), p('Page one.', { pageNumber: 1 }), p('Page two text.', { pageNumber: 2 })]
    expect(mergeShortParagraphs(input, 50, 1000)).toEqual(input)
    expect(mergeShortParagraphs([p('Short.'), p('x'.repeat(995))], 50, 1000)).toEqual([p('Short.'), p('x'.repeat(995))])
  })

  it('keeps the subtype holding most of the text', () => {
    expect(mergeShortParagraphs([p('- a', { subtype: 'list' }), p('A longer paragraph.')], 10, 1000)[0]?.subtype).toBe('paragraph')
  })
})
