import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEventType, EventTypeDefinitionError, isEventOfType, isKnownEvent, listEventTypes, type RegisteredEventType } from './event-type-registry.js'
import { parseEvent, safeParseEvent } from './parse-event.js'

const base = {
  botId: 'bot_1',
  createdOn: '2024-05-01T10:00:00Z',
  direction: 'incoming',
  id: 'evt_1',
  preview: '',
  state: {},
}

const validPayloads: Record<string, unknown> = {
  text: { text: 'hi' },
  markdown: { markdown: '**hi**' },
  image: { imageUrl: 'https://example.com/a.png', title: 'A' },
  audio: { audioUrl: 'https://example.com/a.mp3' },
  video: { videoUrl: 'https://example.com/a.mp4' },
  file: { fileUrl: 'https://example.com/a.pdf', filename: 'a.pdf' },
  location: { latitude: 45.5, longitude: -73.6, address: 'Montréal' },
  card: { title: 'Plan', actions: [{ action: 'postback', label: 'Buy', value: 'buy' }] },
  carousel: { items: [{ title: 'One', actions: [] }] },
  choice: { text: 'Pick', options: [{ label: 'Yes', value: 'y' }] },
  dropdown: { text: 'Pick', options: [{ label: 'Yes', value: 'y' }] },
}

const invalidPayloads: Record<string, [unknown, string]> = {
  text: [{}, 'payload.text'],
  markdown: [{ markdown: 1 }, 'payload.markdown'],
  image: [{ imageUrl: 'not a url' }, 'payload.imageUrl'],
  audio: [{}, 'payload.audioUrl'],
  video: [{ videoUrl: 'x' }, 'payload.videoUrl'],
  file: [{ fileUrl: 'https://e.com', title: 1 }, 'payload.title'],
  location: [{ latitude: 91, longitude: 0 }, 'payload.latitude'],
  card: [{ title: 'x', actions: [{ action: 'dance', label: 'a', value: 'b' }] }, 'payload.actions.0.action'],
  carousel: [{ items: [] }, 'payload.items'],
  choice: [{ text: 'x', options: [] }, 'payload.options'],
  dropdown: [{ text: 'x', options: [{ label: '', value: 'v' }] }, 'payload.options.0.label'],
}

describe('built-in event types', () => {
  it('registers the documented list', () => {
    expect(listEventTypes().slice(0, 11)).toEqual(Object.keys(validPayloads))
  })

  it.each(Object.entries(validPayloads))('accepts a valid %s payload and narrows it', (type, payload) => {
    const event = parseEvent({ ...base, type, payload })
    expect(isEventOfType(event, type as RegisteredEventType)).toBe(true)
    expect(isEventOfType(event, type === 'text' ? 'markdown' : 'text')).toBe(false)
    expect(isKnownEvent(event)).toBe(true)
  })

  it.each(Object.entries(invalidPayloads))('refuses an invalid %s payload at its path', (type, [payload, path]) => {
    const result = safeParseEvent({ ...base, type, payload })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((i) => i.path)).toContain(path)
  })

  it('keeps extra payload fields', () => {
    expect(parseEvent({ ...base, type: 'text', payload: { text: 'a', channelData: 1 } }).payload).toEqual({ text: 'a', channelData: 1 })
  })

  it('keeps an unknown type valid with an open payload', () => {
    const event = parseEvent({ ...base, type: 'somethingElse', payload: { anything: [1] } })
    expect(event.type).toBe('somethingElse')
    expect(isKnownEvent(event)).toBe(false)
  })

  it('does not claim a hand-built event with a wrong payload is of its type', () => {
    const event = { ...parseEvent({ ...base, type: 'text', payload: { text: 'x' } }), payload: { text: 1 } }
    expect(isEventOfType(event, 'text')).toBe(false)
  })
})

describe('defineEventType', () => {
  // The registry is process-wide and test files share their worker's modules (vitest.config.ts): a name no other
  // file uses, so a runtime of another file that asserts it does not know `order` is not affected.
  const Order = defineEventType('shop-order', z.object({ orderId: z.string(), total: z.number().nonnegative() }))

  it('checks the payload of events of the new type', () => {
    const ok = parseEvent({ ...base, type: 'shop-order', payload: { orderId: 'o1', total: 3 } })
    expect(Order.is(ok)).toBe(true)
    expect(isEventOfType(ok, Order)).toBe(true)
    const bad = safeParseEvent({ ...base, type: 'shop-order', payload: { orderId: 'o1', total: -1 } })
    expect(bad.error?.message).toContain('payload.total: expected at least 0, received number (-1)')
  })

  it('refuses built-in names, duplicates and empty names', () => {
    expect(() => defineEventType('text', z.object({}))).toThrow(EventTypeDefinitionError)
    expect(() => defineEventType('shop-order', z.object({}))).toThrow('already defined with another payload schema')
    expect(() => defineEventType('  ', z.object({}))).toThrow('non-empty')
  })

  it('takes the same definition again (a module re-imported by resetModules) and keeps the first schema', () => {
    const again = defineEventType('shop-order', z.object({ orderId: z.string(), total: z.number().nonnegative() }))
    expect(again.type).toBe('shop-order')
    expect(again.is(parseEvent({ ...base, type: 'shop-order', payload: { orderId: 'o2', total: 1 } }))).toBe(true)
  })
})
