import { describe, expect, it } from 'vitest'
import { jsonDepthPath } from './json-depth.js'

const nested = (levels: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { a: value } : [value]
  return value
}

describe('jsonDepthPath', () => {
  it('accepts 64 levels and names the first container past them', () => {
    expect(jsonDepthPath(nested(64))).toBeUndefined()
    const path = jsonDepthPath(nested(65))
    expect(path).toHaveLength(64)
    expect(path!.slice(0, 3)).toEqual(['a', 0, 'a'])
    expect(jsonDepthPath({ x: [{ y: 1 }, { z: { w: [] } }] }, 3)).toEqual(['x', 1, 'z'])
  })

  it('ignores scalars and walks a value of a hundred thousand levels without recursion', () => {
    expect(jsonDepthPath('text')).toBeUndefined()
    expect(jsonDepthPath(null)).toBeUndefined()
    expect(jsonDepthPath(nested(100_000))).toHaveLength(64)
  })

  it('stays linear for shared values and stops on cycles', () => {
    let shared: unknown = { leaf: true }
    for (let i = 0; i < 40; i++) shared = [shared, shared] // 2^40 paths, 41 distinct arrays
    expect(jsonDepthPath(shared)).toBeUndefined()
    const cycle: Record<string, unknown> = {}
    cycle['self'] = cycle
    expect(jsonDepthPath(cycle)).toHaveLength(64)
  })
})
