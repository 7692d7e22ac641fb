import { describe, expect, it } from 'vitest'
import { seededRandom } from '../testing/seeded-random.js'
import { fakeEvent, fakeImageEvent, fakeTextEvent } from '../testing/index.js'
import { EventSchema, eventFieldNames } from './event-schema.js'
import { readValidEvent } from './valid-event-fast-path.js'


const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>

const bases = [
  wire(fakeTextEvent('hello', { tags: { conversation: { topic: 'billing' }, user: { plan: 'pro' } }, conversationId: 'c_1' })),
  (() => {
    const event = wire(fakeImageEvent({ title: 'receipt' }, { trigger: { flowId: 'f', nodeId: 'n', eventName: 'e' } }))
    ;(event.trigger as Record<string, unknown>).extra = 1
    return event
  })(),
  wire(fakeEvent({ type: 'custom', payload: { a: 1, b: [1, 2] }, kb: { included: [{ id: 'kb_1' }], results: [{ score: 0.8 }] } })),
  wire(fakeEvent({ direction: 'outgoing', createdOn: '2024-05-01T12:00:00.123+02:00', userId: 'u', messageId: 'm' })),
  { ...wire(fakeEvent({ type: 'text', payload: { text: 'x', channel: { a: 1 } } })), extraTop: { nested: true }, 7: 'seven' },
]

/** Fresh on every call: the mutations below write into these objects. */
const oddValues = (): unknown[] => [
  undefined, null, 0, 1, '', 'x', true, [], [1], {}, { a: 1 }, { a: 'b' }, new Date('2024-05-01T00:00:00Z'), new Date('nope'),
  '2024-02-30T00:00:00Z', '2024-05-01T10:00:00Z', 'incoming', 'sideways', Object.create(null), new Map(),
  JSON.parse('{"__proto__": {"x": 1}}'), [{ id: 1 }], [{ id: 1 }, 'no'], { flowId: 'f' }, { flowId: 'f', nodeId: 'n' },
  { included: [] }, { included: [{}], results: 'no' }, { conversation: { a: 1 } }, { user: { a: 'b' }, other: 2 },
  { [Symbol('key')]: 1 }, { a: 'b', [Symbol('key')]: 'c' }, { conversation: { a: 'b', [Symbol('key')]: 'c' } }, [{ [Symbol('key')]: 1 }],
]
const fields = ['botId', 'conversationId', 'createdOn', 'direction', 'id', 'integration', 'kb', 'messageId', 'payload', 'preview', 'state', 'tags', 'trigger', 'type', 'userId', 'extra', '__proto__']

/** Output in a form that also shows key order and `Date`s. */
const shape = (value: unknown): unknown => {
  if (value instanceof Date) return { date: value.getTime() }
  if (Array.isArray(value)) return value.map(shape)
  if (value && typeof value === 'object') return Object.entries(value).map(([key, entry]) => [key, shape(entry)])
  return value === undefined ? '<undefined>' : value
}

const safeJson = (value: unknown) => {
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

describe('the valid-event fast path', () => {
  it('is taken for the common valid events and gives exactly the schema output, key order included', () => {
    for (const input of bases) {
      const fast = readValidEvent(input)
      expect(fast).toBeDefined()
      const schema = EventSchema.safeParse(input)
      expect(schema.success).toBe(true)
      expect(shape(fast)).toEqual(shape(schema.data))
    }
  })

  it('checks every typed field of the schema (a field added to the shape and not here fails this test)', () => {
    for (const name of eventFieldNames) {
      const input: Record<string, unknown> = { ...bases[0]!, [name]: Symbol('not valid anywhere') }
      expect(EventSchema.safeParse(input).success, name).toBe(false)
      expect(readValidEvent(input), name).toBeUndefined()
    }
  })

  it('never accepts what the schema refuses, and matches its output whenever it answers (generated mutations)', () => {
    const random = seededRandom(1201)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    let answered = 0
    let refusedBySchema = 0
    for (let i = 0; i < 20_000; i++) {
      const input: Record<string, unknown> = structuredClone(pick(bases))
      const changes = 1 + Math.floor(random() * 3)
      for (let c = 0; c < changes; c++) {
        const field = pick(fields)
        const roll = random()
        if (roll < 0.25) delete input[field]
        else if (roll < 0.5 && Object.hasOwn(input, field) && input[field] && typeof input[field] === 'object') {
          const inner = input[field] as Record<string, unknown>
          inner[pick(['a', 'text', 'imageUrl', 'conversation', 'included', 'flowId', 'nodeId', 'results', '__proto__'])] = pick(oddValues())
        } else if (field === '__proto__') Object.defineProperty(input, '__proto__', { value: pick(oddValues()), enumerable: true, configurable: true, writable: true })
        else input[field] = pick(oddValues())
      }
      const fast = readValidEvent(input)
      const schema = EventSchema.safeParse(input)
      if (!schema.success) refusedBySchema++
      if (fast === undefined) continue
      answered++
      expect(schema.success, safeJson(input)).toBe(true)
      expect(shape(fast), safeJson(input)).toEqual(shape(schema.data))
    }
    expect(answered).toBeGreaterThan(1000)
    expect(refusedBySchema).toBeGreaterThan(1000)
  })
})
