import { describe, expect, it } from 'vitest'
import { QUERY_MAX_BYTES, querySizeOf, searchInputOf } from './search-request.js'
import { describeMeta } from './passage-meta.js'

describe('querySizeOf', () => {
  it('counts UTF-8 bytes as the service does, and flags a query over 1024 bytes', () => {
    expect(querySizeOf('refund')).toEqual({ bytes: 6, tooLong: false, text: '6 / 1024 bytes' })
    expect(querySizeOf('€').bytes).toBe(3)
    expect(querySizeOf('x'.repeat(QUERY_MAX_BYTES)).tooLong).toBe(false)
    // 342 euro signs are 1026 bytes though only 342 characters.
    expect(querySizeOf('€'.repeat(342))).toEqual({ bytes: 1026, tooLong: true, text: '1026 / 1024 bytes: too long' })
  })
})

describe('searchInputOf', () => {
  it('sends the query as typed, the limit, and no tags or context flags unless asked', () => {
    expect(searchInputOf({ query: ' refund ', tags: {}, limit: 5, withContext: false })).toEqual({ query: ' refund ', limit: 5 })
    expect(searchInputOf({ query: 'q', tags: {}, limit: undefined, withContext: false })).toEqual({ query: 'q' })
  })

  it('turns tag conditions into the service tag filter and asks for context with the breadcrumb as an entry', () => {
    expect(searchInputOf({ query: 'q', tags: { team: ['support'], kind: ['faq', 'guide'], empty: [] }, limit: 10, withContext: true })).toEqual({
      query: 'q',
      limit: 10,
      tags: { team: 'support', kind: ['faq', 'guide'] },
      withContext: true,
      includeBreadcrumb: true,
    })
  })
})

describe('describeMeta', () => {
  it('names the subtype, page and position, and the type only when it is not the usual chunk', () => {
    expect(describeMeta({ type: 'chunk', subtype: 'list', pageNumber: 3, position: 7 })).toBe('list · page 3 · position 7')
    expect(describeMeta({ type: 'consolidated', subtype: 'paragraph' })).toBe('consolidated · paragraph')
    expect(describeMeta({})).toBe('passage')
  })
})
