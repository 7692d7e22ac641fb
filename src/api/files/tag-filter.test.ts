import { describe, expect, it } from 'vitest'
import { normalizeTagFilter, TagFilterSchema } from './tag-filter.js'

describe('normalizeTagFilter', () => {
  it('reduces every form of docs/wire-format.md §9', () => {
    const filter = TagFilterSchema.parse({
      eq: 'v',
      any: ['a', 'b'],
      excluded: { not: 'x' },
      included: { in: ['p', 'q'] },
      absent: { exists: false },
    })
    expect(normalizeTagFilter(filter)).toEqual([
      { key: 'eq', anyOf: ['v'] },
      { key: 'any', anyOf: ['a', 'b'] },
      { key: 'excluded', noneOf: ['x'] },
      { key: 'included', anyOf: ['p', 'q'] },
      { key: 'absent', exists: false },
    ])
  })

  it('refuses unknown operators', () => {
    expect(TagFilterSchema.safeParse({ k: { like: 'x' } }).success).toBe(false)
  })
})
