import { describe, expect, it } from 'vitest'
import { BoundedMap } from './bounded-map.js'

const filled = (policy: 'lru' | 'fifo' | 'clear') => new BoundedMap<string, number>(3, policy).set('a', 1).set('b', 2).set('c', 3)

describe('BoundedMap', () => {
  it('lru: a use moves a key last, a new key past the capacity drops the least recently used', () => {
    const map = filled('lru')
    expect(map.get('a')).toBe(1)
    map.set('d', 4)
    expect([...map.keys()]).toEqual(['c', 'a', 'd'])
    map.set('c', 30)
    map.set('e', 5)
    expect([...map]).toEqual([
      ['d', 4],
      ['c', 30],
      ['e', 5],
    ])
  })

  it('fifo: uses and updates keep the order, a new key past the capacity drops the oldest inserted', () => {
    const map = filled('fifo')
    expect(map.get('a')).toBe(1)
    map.set('a', 10)
    map.set('d', 4)
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ])
  })

  it('clear: a new key finding the map full empties it first', () => {
    const map = filled('clear')
    map.set('b', 20)
    expect(map.size).toBe(3)
    map.set('d', 4)
    expect([...map]).toEqual([['d', 4]])
  })

  it('never holds more than the capacity, whatever the policy', () => {
    for (const policy of ['lru', 'fifo', 'clear'] as const) {
      const map = new BoundedMap<number, number>(10, policy)
      for (let i = 0; i < 1000; i++) {
        map.set(i % 37, i)
        map.get((i * 7) % 37)
        expect(map.size).toBeLessThanOrEqual(10)
      }
    }
  })

  it('peek does not count as a use; delete, clear, has and values behave as a Map', () => {
    const map = filled('lru')
    expect(map.peek('a')).toBe(1)
    map.set('d', 4)
    expect(map.has('a')).toBe(false)
    expect(map.delete('b')).toBe(true)
    expect([...map.values()]).toEqual([3, 4])
    map.clear()
    expect(map.size).toBe(0)
  })

  it('a capacity of 0 keeps nothing; a negative or fractional capacity is refused', () => {
    const map = new BoundedMap<string, number>(0, 'lru').set('a', 1)
    expect(map.size).toBe(0)
    expect(() => new BoundedMap(-1, 'fifo')).toThrow(RangeError)
    expect(() => new BoundedMap(1.5, 'clear')).toThrow(RangeError)
  })
})
