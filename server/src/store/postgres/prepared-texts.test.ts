import { describe, expect, it } from 'vitest'
import { PreparedTexts } from './prepared-texts.js'

const runs = (texts: PreparedTexts, text: string, times: number, params: unknown[] = [1]) => Array.from({ length: times }, () => texts.shouldPrepare(text, params))

describe('PreparedTexts', () => {
  it('prepares a text from its third run on, and not a text run once', () => {
    const texts = new PreparedTexts()
    expect(runs(texts, 'SELECT $1::int', 5)).toEqual([false, false, true, true, true])
    expect(texts.shouldPrepare('SELECT $1::text', ['x'])).toBe(false)
    expect(texts.stats()).toEqual({ prepared: 1, promotedInWindow: 1 })
  })

  it('counts the same text with other values as one text, and other kinds of values as another', () => {
    const texts = new PreparedTexts({ runsBeforePrepare: 2 })
    expect([texts.shouldPrepare('SELECT $1', [1]), texts.shouldPrepare('SELECT $1', [2])]).toEqual([false, true])
    // The driver prepares a statement per text and inferred kinds: a boolean is another statement.
    expect(texts.shouldPrepare('SELECT $1', [true])).toBe(false)
    expect(texts.shouldPrepare('SELECT $1', [[true]])).toBe(false)
  })

  it('forgets the runs of texts that fell out of the last seenCapacity texts', () => {
    const texts = new PreparedTexts({ runsBeforePrepare: 2, seenCapacity: 2 })
    texts.shouldPrepare('a', [])
    texts.shouldPrepare('b', [])
    texts.shouldPrepare('c', [])
    expect(texts.shouldPrepare('a', [])).toBe(false)
    expect(texts.shouldPrepare('c', [])).toBe(true)
  })

  it('keeps at most preparedCapacity texts prepared, the least recently run one going back to unprepared', () => {
    const texts = new PreparedTexts({ runsBeforePrepare: 1, preparedCapacity: 2 })
    expect(['a', 'b', 'a', 'c'].map((t) => texts.shouldPrepare(t, []))).toEqual([true, true, true, true])
    expect(texts.stats().prepared).toBe(2)
    // 'b' was the least recently run when 'c' came: it went back to unprepared, and takes a promotion again.
    expect(texts.shouldPrepare('a', [])).toBe(true)
    expect(texts.stats()).toEqual({ prepared: 2, promotedInWindow: 3 })
    expect(texts.shouldPrepare('b', [])).toBe(true)
    expect(texts.stats()).toEqual({ prepared: 2, promotedInWindow: 4 })
  })

  it('prepares at most promotionsPerWindow new texts within the window, then more once it has passed', () => {
    let now = 0
    const texts = new PreparedTexts({ runsBeforePrepare: 1, preparedCapacity: 10, promotionsPerWindow: 2, windowMs: 1000, now: () => now })
    expect(['a', 'b', 'c'].map((t) => texts.shouldPrepare(t, []))).toEqual([true, true, false])
    now = 999
    expect(texts.shouldPrepare('c', [])).toBe(false)
    expect(texts.shouldPrepare('a', [])).toBe(true)
    now = 1000
    expect(texts.shouldPrepare('c', [])).toBe(true)
    expect(texts.stats()).toEqual({ prepared: 3, promotedInWindow: 1 })
  })

  it('prepares nothing with a capacity of 0, and refuses limits that are not whole numbers', () => {
    const texts = new PreparedTexts({ runsBeforePrepare: 1, preparedCapacity: 0 })
    expect(runs(texts, 'a', 3)).toEqual([false, false, false])
    expect(() => new PreparedTexts({ preparedCapacity: -1 })).toThrow('preparedCapacity: expected an integer of 0 or more, received -1')
    expect(() => new PreparedTexts({ windowMs: 1.5 })).toThrow('windowMs: expected an integer of 0 or more, received 1.5')
  })
})
