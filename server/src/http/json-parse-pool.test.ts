import { describe, expect, it } from 'vitest'
import { parseJsonBytes } from './json-parse.js'
import { parseJsonOffThread } from './json-parse-pool.js'

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8')

describe('parseJsonOffThread', () => {
  it('gives the same outcome as the inline parse: values, bounds problems and syntax errors', async () => {
    const samples = [
      '{"a":1,"b":[true,null,"é",{"c":-0.5}],"constructor":"ordinary","toString":{"x":1}}',
      '[1,2,3]',
      '"just a string"',
      '',
      '   ',
      `{"metadata":${'{"a":'.repeat(100)}1${'}'.repeat(101)}`,
      '{"tags":{"__proto__":"x"}}',
      '{"a":',
      '{"a":1}{"b":2}',
      '\ufeff{"a":1}',
    ]
    for (const text of samples) expect(await parseJsonOffThread(bytes(text)), text).toEqual(parseJsonBytes(bytes(text)))
  })

  it('keeps prototype-named keys as own data properties after the trip back', async () => {
    const outcome = await parseJsonOffThread(bytes('{"constructor":{"prototype":1},"hasOwnProperty":2}'))
    expect(outcome.kind).toBe('value')
    const value = (outcome as { value: Record<string, unknown> }).value
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['constructor', 'hasOwnProperty'])
  })

  it('leaves the event loop free while a large body is parsed (timers keep firing)', async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], nested: { n: i / 3 } }))
    const big = bytes(JSON.stringify({ rows }))
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    try {
      const outcome = await parseJsonOffThread(big)
      expect(outcome.kind).toBe('value')
      expect((outcome as { value: { rows: unknown[] } }).value.rows).toHaveLength(150_000)
    } finally {
      clearInterval(timer)
    }
    expect(ticks).toBeGreaterThan(0)
  })

  it('parses several bodies sent at once, each to its own result', async () => {
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => parseJsonOffThread(bytes(JSON.stringify({ i })))))
    expect(outcomes.map((outcome) => (outcome as { value: { i: number } }).value.i)).toEqual(Array.from({ length: 20 }, (_, i) => i))
  })
})
