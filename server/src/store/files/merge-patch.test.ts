import { describe, expect, it } from 'vitest'
import { mergePatch } from './merge-patch.js'

describe('mergePatch', () => {
  it('sets, deletes and keeps keys', () => {
    expect(mergePatch({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 })
    expect(mergePatch({ a: 1 }, undefined)).toEqual({ a: 1 })
  })

  it('treats prototype names as keys (docs/decisions/0701-input-bounds.md)', () => {
    expect(mergePatch<unknown>({ toString: 'x', keep: 1 }, { toString: null, constructor: 'c', valueOf: { a: 1 } })).toEqual({ keep: 1, constructor: 'c', valueOf: { a: 1 } })
    expect(mergePatch<unknown>({}, { hasOwnProperty: null })).toEqual({})
    const kept = mergePatch<unknown>({}, JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>)
    expect(Object.keys(kept)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })
})
