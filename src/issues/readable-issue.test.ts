import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { formatIssues, toReadableIssues } from './readable-issue.js'

const schema = z
  .object({
    direction: z.enum(['incoming', 'outgoing']),
    name: z.string().max(3),
    count: z.number(),
    nested: z.object({ flowId: z.string() }),
  })
  .strict()

describe('toReadableIssues', () => {
  it('names the path, what was expected and what was received', () => {
    const input = { direction: 'sideways', name: 'abcdef', count: '3', nested: {}, extra: true }
    const result = schema.safeParse(input)
    expect(result.success).toBe(false)
    const issues = toReadableIssues(result.error!.issues, input)
    const messages = issues.map((i) => i.message)
    expect(messages).toContain('direction: expected "incoming" | "outgoing", received "sideways"')
    expect(messages).toContain('name: expected at most 3 characters, received 6 characters')
    expect(messages).toContain('count: expected number, received "3"')
    expect(messages).toContain('nested.flowId: expected string, received missing')
    expect(messages).toContain('(root): expected no other keys, received "extra"')
  })

  it('joins several issues on separate lines', () => {
    const text = formatIssues('Invalid event', [
      { path: 'a', expected: 'string', received: 'number (1)', message: 'a: expected string, received number (1)', code: 'invalid_type' },
      { path: 'b', expected: 'string', received: 'missing', message: 'b: expected string, received missing', code: 'invalid_type' },
    ])
    expect(text).toBe('Invalid event:\n  - a: expected string, received number (1)\n  - b: expected string, received missing')
  })
})

describe('toReadableIssues with a schema\'s own words', () => {
  it('uses the words of a pattern rule instead of the pattern, never doubling "expected"', async () => {
    const { TableNameSchema } = await import('../api/tables/table.js')
    const input = 'people'
    const [issue] = toReadableIssues(TableNameSchema.safeParse(input).error!.issues, input)
    expect(issue!.message).toBe('(root): expected a name ending in "Table", like peopleTable (1 to 45 letters, digits or "_" before "Table", any case), received "people"')
    expect(issue!.message).not.toContain('/^')
    expect(issue!.expected).not.toMatch(/^expected/)
  })

  it('gives a custom "expected X" rule the received value, and strips the word from `expected`', async () => {
    const { TagValueSchema } = await import('../api/files/file.js')
    const input = 'a\u0001b'
    const [issue] = toReadableIssues(TagValueSchema.safeParse(input).error!.issues, input)
    expect(issue!.expected).toBe('no control characters (U+0000 to U+001F, U+007F to U+009F)')
    expect(issue!.message).toBe('(root): expected no control characters (U+0000 to U+001F, U+007F to U+009F), received "a\\u0001b"')
    expect(issue!.message).not.toContain('expected expected')
  })

  it('names a refused record key and its rule', async () => {
    const { FileTagsSchema } = await import('../api/files/file.js')
    const input = { 'a\u0001': 'x' }
    const [issue] = toReadableIssues(FileTagsSchema.safeParse(input).error!.issues, input)
    expect(issue!.message).toBe('a\u0001: expected a key with no control characters, received "a\\u0001"')
  })
})
