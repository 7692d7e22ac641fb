import { describe, expect, it } from 'vitest'
import { shortPath } from './short-path.js'

describe('shortPath', () => {
  it('cuts long segments and long paths, and names the root', () => {
    expect(shortPath([])).toBe('(root)')
    expect(shortPath(['rows', 3, 'x'.repeat(50)])).toBe(`rows.3.${'x'.repeat(40)}…`)
    expect(shortPath(Array.from({ length: 9 }, (_, i) => i))).toBe('0.1.2.3.4.5.6.7…')
  })
})
