import { describe, expect, it } from 'vitest'
import { etagMatches, parseRange } from './byte-range.js'

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-9', { kind: 'partial', start: 0, end: 9 }],
    ['bytes=90-', { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-5', { kind: 'partial', start: 95, end: 99 }],
    ['bytes=-500', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-5000', { kind: 'partial', start: 50, end: 99 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
    ['bytes=9-3', { kind: 'full' }],
  ])('%s on 100 bytes → %o', (header, outcome) => {
    expect(parseRange(header, 100)).toEqual(outcome)
  })

  it('cannot satisfy any range of an empty content', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' })
  })
})

describe('etagMatches', () => {
  it('compares weakly and accepts lists and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true)
    expect(etagMatches('W/"a"', '"a"')).toBe(true)
    expect(etagMatches('"b", "a"', '"a"')).toBe(true)
    expect(etagMatches('*', '"a"')).toBe(true)
    expect(etagMatches('"b"', '"a"')).toBe(false)
    expect(etagMatches(undefined, '"a"')).toBe(false)
  })
})
