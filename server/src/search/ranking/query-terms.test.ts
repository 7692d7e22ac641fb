import { describe, expect, it } from 'vitest'
import { lightStem } from './light-stem.js'
import { candidateCoverages, contentStems } from './query-terms.js'

describe('the query terms of the relevance score', () => {
  it('stems plural, past and gerund forms alike and keeps short words and codes whole', () => {
    expect(['refunds', 'refunded', 'refunding', 'refund'].map(lightStem)).toEqual(['refund', 'refund', 'refund', 'refund'])
    expect([lightStem('policies'), lightStem('policy')]).toEqual(['polic', 'polic'])
    expect([lightStem('class'), lightStem('stopped'), lightStem('e4411'), lightStem('zx')]).toEqual(['class', 'stop', 'e4411', 'zx'])
  })

  it('drops stop words unless the query has nothing else', () => {
    expect(contentStems('How do I get refunds?')).toEqual(['refund'])
    expect(contentStems('to be or not to be').length).toBeGreaterThan(0)
  })

  it('weighs a term by its length and by how few candidates hold it', () => {
    const [code, cats, kittens] = candidateCoverages('ZX-81 purr', ['ZX-81 error code table', 'cats purr', 'kittens purr'])
    expect(code).toBeGreaterThan(cats!)
    expect(cats).toBeCloseTo(kittens!, 12)
    expect(candidateCoverages('refund', ['Refunds in 14 days'])).toEqual([1])
    expect(candidateCoverages('the', ['nothing here'])).toEqual([0])
  })
})
