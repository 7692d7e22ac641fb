import { describe, expect, it } from 'vitest'
import { jsonText } from './json-text.js'

describe('jsonText', () => {
  it('is JSON.stringify for values that are not frozen, each time anew', () => {
    const answer = { file: { id: 'file_1' } }
    expect(jsonText(answer)).toBe('{"file":{"id":"file_1"}}')
    answer.file.id = 'file_2'
    expect(jsonText(answer)).toBe('{"file":{"id":"file_2"}}')
    expect(jsonText('a')).toBe('"a"')
    expect(jsonText(null)).toBe('null')
  })

  it('keeps the text of a frozen object: a later stringify is not run', () => {
    const answer = Object.freeze({ file: Object.freeze({ id: 'file_1', toJSON: undefined as unknown }) })
    let calls = 0
    const counted = Object.freeze({ inner: answer, toJSON: () => (calls++, answer) })
    expect(jsonText(counted)).toBe('{"file":{"id":"file_1"}}')
    expect(jsonText(counted)).toBe('{"file":{"id":"file_1"}}')
    expect(calls).toBe(1)
  })
})
