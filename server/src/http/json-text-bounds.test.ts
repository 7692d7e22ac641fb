import { describe, expect, it } from 'vitest'
import { jsonTextIssue } from './json-text-bounds.js'

const nestedObjects = (levels: number, key = 'a') => `${`{"${key}":`.repeat(levels)}1${'}'.repeat(levels)}`
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

describe('jsonTextIssue', () => {
  it('accepts 64 levels and refuses 65, naming the path where the limit was passed', () => {
    expect(jsonTextIssue(nestedArrays(64))).toBeUndefined()
    expect(jsonTextIssue(`{"metadata":${nestedObjects(63)}}`)).toBeUndefined()
    const issue = jsonTextIssue(`{"metadata":${nestedObjects(64)}}`)
    expect(issue).toMatchObject({ path: 'metadata.a.a.a.a.a.a.a…', expected: 'at most 64 levels of nesting', received: 'more than 64', code: 'too_deep' })
    expect(issue?.message).toBe('metadata.a.a.a.a.a.a.a…: expected at most 64 levels of nesting, received more than 64')
  })

  it('numbers array elements and follows keys across siblings', () => {
    const text = '{"rows":[{"x":[1]},{"o":{"p":{"q":[[1]]}}}],"z":"}{]["}'
    expect(jsonTextIssue(text, { maxDepth: 5 })?.path).toBe('rows.1.o.p.q')
    expect(jsonTextIssue(text, { maxDepth: 6 })?.path).toBe('rows.1.o.p.q.0')
    expect(jsonTextIssue(text, { maxDepth: 7 })).toBeUndefined()
  })

  it('is not fooled by brackets, quotes and backslashes inside strings', () => {
    expect(jsonTextIssue(`{"a":"${'['.repeat(500)}","b":"\\"{{{","c\\\\":"\\\\"}`, { maxDepth: 1 })).toBeUndefined()
    expect(jsonTextIssue('{"k\\"{":{"x":1}}', { maxDepth: 1 })?.path).toBe('k"{')
  })

  it('scans millions of levels in one pass without recursion', () => {
    const started = performance.now()
    expect(jsonTextIssue(nestedArrays(2_000_000))?.path).toBe('0.0.0.0.0.0.0.0…')
    expect(jsonTextIssue(`[${'"x",'.repeat(200_000)}1]`)).toBeUndefined()
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it('refuses the key "__proto__" at any depth, plain or escaped, and only as a key', () => {
    expect(jsonTextIssue('{"tags":{"__proto__":"x"}}')).toMatchObject({
      path: 'tags.__proto__',
      message: 'tags.__proto__: expected a key other than "__proto__", received "__proto__"',
      code: 'forbidden_key',
    })
    expect(jsonTextIssue('{"a":[{"\\u005f_proto__":1}]}')?.path).toBe('a.0.__proto__')
    expect(jsonTextIssue('{"a":"__proto__","b":["__proto__"],"__proto":1,"constructor":{"toString":2}}')).toBeUndefined()
  })

  it('puts the prefix first, and leaves malformed JSON to the parser', () => {
    expect(jsonTextIssue('{"__proto__":1}', { prefix: ['tags'] })?.path).toBe('tags.__proto__')
    expect(jsonTextIssue('{"a":"never closed')).toBeUndefined()
    expect(jsonTextIssue(']]]{')).toBeUndefined()
  })
})
