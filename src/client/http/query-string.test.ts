import qs from 'qs'
import { describe, expect, it } from 'vitest'
import { encodeQuery } from './query-string.js'

const official = (query: Record<string, unknown>) =>
  qs.stringify(query, { encode: true, arrayFormat: 'repeat', allowDots: true })

describe('encodeQuery', () => {
  it('produces the example of docs/wire-format.md §2', () => {
    const query = {
      tags: { category: ['Sales', 'Marketing'], integrationName: { not: 'webchat' }, other: { exists: false } },
      ids: ['a', 'b'],
      indexed: true,
    }
    expect(encodeQuery(query)).toBe(
      'tags.category=Sales&tags.category=Marketing&tags.integrationName.not=webchat&tags.other.exists=false&ids=a&ids=b&indexed=true',
    )
  })

  const samples: Array<Record<string, unknown>> = [
    {},
    { nextToken: undefined, pageSize: 20 },
    { nextToken: 'eyJvIjoyMH0=/+&?#' },
    { ids: ['one'] },
    { ids: [] },
    { q: "it's (very) *fine*! ~ok~ 100% é 🚀 a b" },
    { tags: { 'key with space': 'v&w=x', 'dotted.key': 'y' } },
    { tags: { k: { in: ['a', 'b'], not: 'c' } }, sortField: 'createdAt', sortDirection: 'desc' },
    { n: 0, f: false, neg: -1.5 },
    { nul: null, deep: { a: { b: { c: 'd' } } } },
    { arrOfObj: [{ a: 1 }, { b: 2 }] },
    { when: new Date('2026-11-22T00:00:00.000Z') },
  ]
  for (const sample of samples) {
    it(`matches qs for ${JSON.stringify(sample)}`, () => {
      expect(encodeQuery(sample)).toBe(official(sample))
    })
  }

  it('round-trips through the qs parser the server uses', () => {
    const query = { tags: { category: ['Sales', 'Support'], region: 'eu/west' }, nextToken: 'a+b/c=' }
    expect(qs.parse(encodeQuery(query), { allowDots: true })).toEqual(query)
  })
})
