import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { coerceToSchema, parseQuery } from './query.js'

describe('coerceToSchema', () => {
  it('sees through optional, default, nullable and pipe wrappers', () => {
    expect(coerceToSchema('5', z.number().int().min(1).default(20))).toBe(5)
    expect(coerceToSchema('true', z.boolean().nullable().optional())).toBe(true)
    expect(coerceToSchema('7', z.string().transform(Number).pipe(z.number()))).toBe('7') // the input side is a string
    expect(coerceToSchema('x', z.array(z.string()).optional())).toEqual(['x'])
  })

  it('leaves values it cannot coerce as received', () => {
    expect(coerceToSchema('maybe', z.boolean())).toBe('maybe')
    expect(coerceToSchema('', z.number())).toBe('')
    expect(coerceToSchema('12abc', z.number())).toBe('12abc')
    expect(coerceToSchema('{not json', z.record(z.string(), z.string()))).toBe('{not json')
  })

  it('keeps strings where a union accepts strings, and coerces where it only accepts scalars', () => {
    expect(coerceToSchema('true', z.union([z.string(), z.boolean()]))).toBe('true')
    expect(coerceToSchema('3', z.union([z.number(), z.array(z.number())]))).toBe(3)
    expect(coerceToSchema(['1', '2'], z.union([z.number(), z.array(z.number())]))).toEqual([1, 2])
    expect(coerceToSchema('asc', z.enum(['asc', 'desc']))).toBe('asc')
  })

  it('coerces inside records and objects, and parses JSON object strings', () => {
    const tags = z.record(z.string(), z.union([z.string(), z.object({ exists: z.boolean() })]))
    expect(coerceToSchema({ a: 'x', b: { exists: 'false' } }, tags)).toEqual({ a: 'x', b: { exists: false } })
    expect(coerceToSchema('{"b":{"exists":"true"}}', tags)).toEqual({ b: { exists: true } })
  })
})

describe('parseQuery', () => {
  it('reads the official client encoding and keeps unknown keys for the schema to judge', () => {
    const schema = z.object({ ids: z.array(z.string()).optional(), pageSize: z.number().optional() })
    expect(parseQuery('?ids=a&ids=b&pageSize=10&other=1', schema)).toEqual({ ids: ['a', 'b'], pageSize: 10, other: '1' })
    expect(parseQuery('', schema)).toEqual({})
    expect(parseQuery('tags.k%2Ey=v')).toEqual({ tags: { k: { y: 'v' } } }) // the wire ambiguity of dotted tag keys (docs/wire-format.md §2)
  })
})

describe('parseQuery bounds (docs/decisions/0701-input-bounds.md)', () => {
  const tags = z.object({ tags: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional() })

  it('keeps names of prototype properties as ordinary names', () => {
    expect(parseQuery('?tags.toString=v&tags.constructor=w&tags.hasOwnProperty=x', tags)).toEqual({ tags: { toString: 'v', constructor: 'w', hasOwnProperty: 'x' } })
  })

  it('refuses a parameter named with a __proto__ segment instead of dropping it', () => {
    for (const search of ['?tags.__proto__=v', '?__proto__.x=1', '?tags[__proto__]=v', '?tags.%5F%5Fproto%5F%5F=v']) {
      expect(() => parseQuery(search, tags)).toThrow(/^Invalid query parameters: .*expected a parameter name without "__proto__"/)
    }
  })

  it('refuses too many parameters or values instead of dropping some', () => {
    const many = Array.from({ length: 2001 }, (_, i) => `k${i}=1`).join('&')
    expect(() => parseQuery(many)).toThrow('Invalid query parameters: (root): expected at most 2000 parameters, received more')
    const values = Array.from({ length: 1001 }, (_, i) => `ids=${i}`).join('&')
    expect(() => parseQuery(values)).toThrow('Invalid query parameters: (root): expected at most 1000 values of one parameter, received more')
  })

  it('checks a JSON object value before parsing it, naming the parameter', () => {
    const deep = `?tags=${encodeURIComponent(`{"k":${'['.repeat(100)}${']'.repeat(100)}}`)}`
    expect(() => parseQuery(deep, tags)).toThrow('Invalid query parameters: tags.k.0.0.0.0.0.0…: expected at most 64 levels of nesting, received more than 64')
    expect(() => parseQuery(`?tags=${encodeURIComponent('{"__proto__":"x"}')}`, tags)).toThrow(
      'Invalid query parameters: tags.__proto__: expected a key other than "__proto__", received "__proto__"',
    )
    expect(parseQuery(`?tags=${encodeURIComponent('{"toString":"x"}')}`, tags)).toEqual({ tags: { toString: 'x' } })
  })
})
