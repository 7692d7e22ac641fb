import { describe, expect, it } from 'vitest'
import { rowBytes } from './row-bytes.js'

describe('rowBytes', () => {
  const columns = new Set(['name', 'total', 'done', 'meta'])

  it('counts the UTF-8 text of each value of a column the table has', () => {
    expect(rowBytes({ name: 'café' }, columns)).toBe(5)
    expect(rowBytes({ name: 'ab', total: 12, done: true }, columns)).toBe(2 + 2 + 4)
    expect(rowBytes({ meta: { a: 'b' } }, columns)).toBe(9)
  })

  it('counts nothing for null, missing values and columns the table does not have', () => {
    expect(rowBytes({ name: null, total: undefined }, columns)).toBe(0)
    expect(rowBytes({ extra: 'x'.repeat(100), name: 'a' }, columns)).toBe(1)
    expect(rowBytes({}, columns)).toBe(0)
  })
})
