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
