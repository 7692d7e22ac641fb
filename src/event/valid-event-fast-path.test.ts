import { describe, expect, it } from 'vitest'
import { seededRandom } from '../testing/seeded-random.js'
import { fakeEvent, fakeImageEvent, fakeTextEvent, fakeUntypedEvent } from '../testing/index.js'
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
  wire(fakeUntypedEvent('custom', { a: 1, b: [1, 2] }, { kb: { included: [{ id: 'kb_1' }], results: [{ score: 0.8 }] } })),
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

  it('answers as the schema for own __proto__ keys and prototype names, at every level (JSON.parse makes them own keys)', () => {
    const text = JSON.stringify(bases[0])
    const image = JSON.stringify(bases[1])
    const custom = JSON.stringify(bases[2])
    const withKey = (json: string, path: string[], key: string, value: string) => {
      const event = JSON.parse(json) as Record<string, unknown>
      let target = event
      for (const step of path) target = target[step] as Record<string, unknown>
      // Rebuilt through JSON.parse so that `__proto__` is an own data key, as a webhook body would give it.
      const rest = JSON.stringify(target).slice(1)
      const inner = JSON.parse(`{${JSON.stringify(key)}: ${value}${rest === '}' ? '' : ','} ${rest}`) as Record<string, unknown>
      if (path.length === 0) return inner
      let parent = event
      for (const step of path.slice(0, -1)) parent = parent[step] as Record<string, unknown>
      parent[path[path.length - 1]!] = inner
      return event
    }
    const inputs: Array<{ input: Record<string, unknown>; answered: boolean }> = []
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
      for (const value of ['{"polluted": true}', '"x"', 'null']) {
        for (const [json, path] of [
          [text, []], [text, ['payload']], [text, ['state']], [text, ['tags']], [text, ['tags', 'conversation']],
          [image, ['trigger']], [image, ['payload']], [custom, ['kb']], [custom, ['kb', 'included', '0']], [custom, ['kb', 'results', '0']],
        ] as const) {
          inputs.push({ input: withKey(json, [...path], key, value), answered: key !== '__proto__' })
        }
      }
    }
    // An own __proto__ that is not enumerable: invisible to the schema, as to the direct check.
    const hidden = JSON.parse(text) as Record<string, unknown>
    Object.defineProperty(hidden, '__proto__', { value: { polluted: true }, enumerable: false })
    inputs.push({ input: hidden, answered: true })
    let answered = 0
    for (const { input, answered: expected } of inputs) {
      const fast = readValidEvent(input)
      const schema = EventSchema.safeParse(input)
      if (fast !== undefined) {
        answered++
        expect(schema.success, safeJson(input)).toBe(true)
        expect(shape(fast), safeJson(input)).toEqual(shape(schema.data))
        expect(Object.getPrototypeOf(fast)).toBe(Object.prototype)
      }
      // Which inputs the direct check reads is a matter of speed, not of answers; this pins down the intent.
      if (!expected) expect(fast, safeJson(input)).toBeUndefined()
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(answered).toBeGreaterThan(100)
  })
})
