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

describe('TagFilterSchema bounds (docs/decisions/0701-input-bounds.md)', () => {
  const messages = (input: unknown) => TagFilterSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)

  it('takes at most 50 keys', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']))
    expect(TagFilterSchema.safeParse(keys(50)).success).toBe(true)
    expect(messages(keys(51))).toEqual([': expected at most 50 tag keys, received 51'])
  })

  it('takes at most 100 values per key, in and not together', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`)
    expect(TagFilterSchema.safeParse({ k: values(100), j: { in: values(50), not: values(50) } }).success).toBe(true)
    expect(messages({ k: values(101) })).toEqual(['k: expected at most 100 values, received 101'])
    expect(messages({ ok: 'x', j: { in: values(60), not: values(41), exists: true } })).toEqual(['j: expected at most 100 values, received 101'])
  })
})
