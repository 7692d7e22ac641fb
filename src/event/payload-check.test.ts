import { describe, expect, it } from 'vitest'
import { seededRandom } from '../testing/seeded-random.js'
import { z } from 'zod'
import { builtInPayloadSchemas } from './built-in-payloads.js'
import { compilePayloadCheck } from './payload-check.js'


const card = { title: 'Plan', subtitle: 'pro', imageUrl: 'https://example.com/a.png', actions: [{ action: 'url', label: 'Open', value: 'https://example.com' }] }
const validPayloads: Record<keyof typeof builtInPayloadSchemas, Array<Record<string, unknown>>> = {
  text: [{ text: 'hi' }, { text: '', channel: { a: 1 } }],
  markdown: [{ markdown: '# hi' }],
  image: [{ imageUrl: 'https://example.com/a.png' }, { imageUrl: 'https://example.com/a.png', title: 'a' }],
  audio: [{ audioUrl: 'https://example.com/a.mp3' }],
  video: [{ videoUrl: 'https://example.com/a.mp4', title: 'v' }],
  file: [{ fileUrl: 'https://example.com/a.pdf', title: 't', filename: 'a.pdf' }],
  location: [{ latitude: 48.85, longitude: 2.35 }, { latitude: -90, longitude: 180, address: 'x', title: 'y' }],
  card: [card, { title: 'x', actions: [] }],
  carousel: [{ items: [card, card] }],
  choice: [{ text: 'Pick', options: [{ label: 'A', value: 'a' }] }],
  dropdown: [{ text: 'Pick', options: [{ label: 'A', value: 'a' }, { label: 'B', value: 'b', extra: 1 }] }],
}

const oddValues = (): unknown[] => [
  undefined, null, 0, -0, 1, -91, 91, 181, -181, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', 'not a url', 'https://example.com/x',
  'postback', 'say', 'nope', true, [], [{}], [card], [{ label: '', value: 'a' }], [{ label: 'A', value: 1 }], {}, { a: 1 },
  Object.create(null), new Map(), new Date(0), [undefined], [, 1], // eslint-disable-line no-sparse-arrays
]
const fields = ['text', 'markdown', 'imageUrl', 'audioUrl', 'videoUrl', 'fileUrl', 'title', 'subtitle', 'filename', 'latitude', 'longitude', 'address', 'actions', 'items', 'options', 'label', 'value', 'action', 'extra']

/** Replaces a random field at a random depth (objects and arrays inside the payload too). */
function mutate(value: unknown, random: () => number, pick: <T>(items: readonly T[]) => T): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0 || random() < 0.3) return random() < 0.5 ? [] : pick(oddValues())
    const copy = [...value]
    const at = Math.floor(random() * copy.length)
    copy[at] = mutate(copy[at], random, pick)
    return copy
  }
  if (value && typeof value === 'object') {
    const copy = { ...(value as Record<string, unknown>) }
    const keys = Object.keys(copy)
    const roll = random()
    if (roll < 0.2 && keys.length > 0) delete copy[pick(keys)]
    else if (roll < 0.6 && keys.length > 0) {
      const key = pick(keys)
      copy[key] = mutate(copy[key], random, pick)
    } else copy[pick(fields)] = pick(oddValues())
    return copy
  }
  return pick(oddValues())
}

describe('compiled payload checks', () => {
  it('accept the valid payloads of every built-in type themselves (so the schema is not asked)', () => {
    for (const [type, payloads] of Object.entries(validPayloads)) {
      const schema = builtInPayloadSchemas[type as keyof typeof builtInPayloadSchemas]
      const check = compilePayloadCheck(schema)
      for (const payload of payloads) {
        expect(schema.safeParse(payload).success, type).toBe(true)
        expect(check(payload), `${type} ${JSON.stringify(payload)}`).toBe(true)
      }
    }
  })

  it('never accept what the schema refuses (generated mutations of every built-in type)', () => {
    const random = seededRandom(1203)
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!
    const entries = Object.entries(validPayloads)
    let accepted = 0
    let refused = 0
    const looser: string[] = []
    for (let i = 0; i < 30_000; i++) {
      const [type, payloads] = pick(entries)
      const schema = builtInPayloadSchemas[type as keyof typeof builtInPayloadSchemas]
      let input: unknown = pick(payloads)
      const changes = 1 + Math.floor(random() * 2)
      for (let c = 0; c < changes; c++) input = mutate(input, random, pick)
      const checked = compilePayloadCheck(schema)(input)
      const schemaSays = schema.safeParse(input).success
      if (schemaSays) accepted++
      else refused++
      if (checked && !schemaSays) looser.push(`${type}: ${String(JSON.stringify(input))}`)
    }
    expect(looser.slice(0, 10)).toEqual([])
    expect(accepted).toBeGreaterThan(2000)
    expect(refused).toBeGreaterThan(2000)
  })

  it('reads exclusive bounds, max lengths and enums, and leaves what it cannot read to the schema', () => {
    const schema = z.object({
      n: z.number().gt(0).lt(10),
      s: z.string().max(3),
      list: z.array(z.enum(['a', 'b'])).max(2),
      refined: z.string().refine((v) => v.startsWith('ok')),
      strict: z.strictObject({ a: z.string() }).optional(),
      whole: z.int().optional(),
    })
    const check = compilePayloadCheck(schema)
    const base = { n: 5, s: 'abc', list: ['a', 'b'], refined: 'ok!' }
    const cases: unknown[] = [
      base,
      { ...base, n: 0 },
      { ...base, n: 10 },
      { ...base, s: 'abcd' },
      { ...base, list: ['a', 'b', 'a'] },
      { ...base, list: ['c'] },
      { ...base, refined: 'no' },
      { ...base, strict: { a: 'x' } },
      { ...base, strict: { a: 'x', b: 1 } },
      { ...base, whole: 1.5 },
      { ...base, whole: 2 },
    ]
    for (const input of cases) expect(check(input), JSON.stringify(input)).toBe(schema.safeParse(input).success)
  })
})
