import { describe, expect, it } from 'vitest'
import { formatIssues, toReadableIssues } from '../issues/index.js'
import { fakeImageEvent, fakeTextEvent, fakeUntypedEvent } from '../testing/index.js'
import { seededRandom } from '../testing/seeded-random.js'
import { EventSchema } from './event-schema.js'
import { readRefusalIssues } from './refusal-fast-path.js'
import { safeParseEvent } from './parse-event.js'

const wire = (event: unknown) => JSON.parse(JSON.stringify(event)) as Record<string, unknown>
const bases = [
  wire(fakeTextEvent('Where is my refund?', { tags: { conversation: { topic: 'billing' } } })),
  wire(fakeImageEvent({ title: 'receipt' }, { trigger: { flowId: 'flow_1', nodeId: 'node_1' } })),
  wire(fakeUntypedEvent('custom', { a: 1 }, { kb: { included: [{ id: 'kb_1' }] } })),
]
const fields = ['botId', 'conversationId', 'createdOn', 'direction', 'id', 'integration', 'kb', 'messageId', 'payload', 'preview', 'state', 'tags', 'trigger', 'type', 'userId']
const oddValues = () => [undefined, null, 1, -1, 'x', '', 'sideways', 'incoming', '2024-13-45', '2024-05-01T10:00:00Z', [], [1], {}, { text: 1 }, { text: 'ok' }, true, { conversation: { a: 1 } }, { flowId: 'f' }, { included: 1 }]

describe('readRefusalIssues', () => {
  it('gives exactly the issues of EventSchema whenever it answers (generated mutations)', () => {
    const random = seededRandom(2301)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    let answered = 0
    for (let i = 0; i < 4_000; i++) {
      const input = structuredClone(pick(bases))
      const changes = 1 + Math.floor(random() * 3)
      for (let c = 0; c < changes; c++) {
        const field = pick(fields)
        const roll = random()
        if (roll < 0.25) delete input[field]
        else if (roll < 0.5 && input[field] && typeof input[field] === 'object') (input[field] as Record<string, unknown>)[pick(['a', 'text', 'imageUrl', 'conversation', 'flowId', 'included'])] = pick(oddValues())
        else input[field] = pick(oddValues())
      }
      const fast = readRefusalIssues(input)
      const schema = EventSchema.safeParse(input)
      if (fast === undefined) continue
      answered++
      expect(schema.success, JSON.stringify(input)).toBe(false)
      expect(toReadableIssues(fast, input), JSON.stringify(input)).toEqual(toReadableIssues(schema.error!.issues, input))
    }
    expect(answered).toBeGreaterThan(1000)
  })

  it('writes tag values and plain-string payloads of the wrong type directly, as the schema reports them', () => {
    const input = { ...bases[0], payload: { text: 42 }, tags: { conversation: { topic: 5, ok: 'yes' }, user: { n: null } } }
    const fast = readRefusalIssues(input)
    expect(fast?.map((issue) => issue.path)).toEqual([['tags', 'conversation', 'topic'], ['tags', 'user', 'n'], ['payload', 'text']])
    expect(toReadableIssues(fast!, input)).toEqual(toReadableIssues(EventSchema.safeParse(input).error!.issues, input))
  })

  it('gives safeParseEvent an error whose message is written on first read', () => {
    const error = safeParseEvent({ event: bases[0] }).error!
    expect(Object.hasOwn(error, 'message')).toBe(false)
    expect(error.message).toBe(`${formatIssues('Invalid event', error.issues)}\nLikely cause: ${error.hints.join('; ')}`)
    expect(error.stack).toContain('EventValidationError: Invalid event:')
    expect(Object.hasOwn(error, 'message')).toBe(true)
  })

  it('leaves valid events and odd objects to the schema', () => {
    expect(readRefusalIssues(bases[0])).toBeUndefined()
    expect(readRefusalIssues('text')).toBeUndefined()
    expect(readRefusalIssues(new Map())).toBeUndefined()
    expect(readRefusalIssues(JSON.parse('{"__proto__": {"x": 1}, "botId": 1}'))).toBeUndefined()
  })
})
