import { describe, expect, it } from 'vitest'
import { describeJsonBoundsProblem, jsonBoundsProblem } from './json-bounds.js'

const nested = (levels: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { a: value } : [value]
  return value
}

describe('jsonBoundsProblem', () => {
  it('accepts 64 levels and names the first container past them', () => {
    expect(jsonBoundsProblem(nested(64))).toBeUndefined()
    const found = jsonBoundsProblem(nested(65))
    expect(found?.problem).toBe('too-deep')
    expect(found?.path).toHaveLength(64)
    expect(found?.path.slice(0, 3)).toEqual(['a', 0, 'a'])
    expect(jsonBoundsProblem({ x: [{ y: 1 }, { z: { w: [] } }] }, 3)).toEqual({ problem: 'too-deep', path: ['x', 1, 'z'] })
    expect(describeJsonBoundsProblem(found!)).toBe('expected at most 64 levels of nesting, received more (at a.0.a.0.a.0.a.0…)')
  })

  it('ignores scalars and walks a value of a hundred thousand levels without recursion', () => {
    expect(jsonBoundsProblem('text')).toBeUndefined()
    expect(jsonBoundsProblem(null)).toBeUndefined()
    expect(jsonBoundsProblem(nested(100_000))?.path).toHaveLength(64)
  })

  it('stays linear for shared values and stops on cycles', () => {
    let shared: unknown = { leaf: true }
    for (let i = 0; i < 40; i++) shared = [shared, shared] // 2^40 paths, 41 distinct arrays
    expect(jsonBoundsProblem(shared)).toBeUndefined()
    const cycle: Record<string, unknown> = {}
    cycle['self'] = cycle
    expect(jsonBoundsProblem(cycle)?.path).toHaveLength(64)
  })

  it('finds an own "__proto__" key at any depth, and only own keys', () => {
    expect(jsonBoundsProblem(JSON.parse('{"x":[{"ok":1},{"__proto__":{"y":1}}]}'))).toEqual({ problem: 'forbidden-key', path: ['x', 1, '__proto__'] })
    expect(jsonBoundsProblem({ constructor: 1, toString: { valueOf: 2 } })).toBeUndefined()
    expect(describeJsonBoundsProblem({ problem: 'forbidden-key', path: ['__proto__'] })).toBe('expected no key "__proto__", received one (at __proto__)')
  })
})
