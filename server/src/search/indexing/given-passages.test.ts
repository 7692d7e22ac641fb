import { describe, expect, it } from 'vitest'
import { prepareGivenPassages } from './given-passages.js'

describe('prepareGivenPassages', () => {
  it('defaults the type to paragraph and derives breadcrumbs from titles and subtitles', () => {
    const prepared = prepareGivenPassages([
      { content: 'Intro text' },
      { content: '# Guide', type: 'title' },
      { content: 'Step one', pageNumber: 2 },
      { content: '## Safety', type: 'subtitle' },
      { content: 'Wear gloves', type: 'list' },
      { content: 'Appendix', type: 'title' },
      { content: 'Notes' },
    ])
    expect(prepared.map((p) => [p.subtype, p.breadcrumb])).toEqual([
      ['paragraph', []],
      ['title', []],
      ['paragraph', ['Guide']],
      ['subtitle', ['Guide']],
      ['list', ['Guide', 'Safety']],
      ['title', []],
      ['paragraph', ['Appendix']],
    ])
    expect(prepared[2]!.pageNumber).toBe(2)
    expect(prepared[0]!.pageNumber).toBeUndefined()
  })
})
