import { describe, expect, it } from 'vitest'
import {
  getConversationId,
  getExtraFields,
  getTag,
  getTags,
  getText,
  getTrigger,
  getUserId,
  isIncoming,
  isOutgoing,
  isTextEvent,
} from './accessors.js'
import { parseEvent } from './parse-event.js'
import { getPreview } from './preview.js'

const base = {
  botId: 'bot_1',
  createdOn: '2024-05-01T10:00:00Z',
  direction: 'incoming',
  id: 'evt_1',
  preview: '',
  state: {},
  type: 'text',
  payload: { text: 'hello there' },
}

describe('getPreview', () => {
  it('prefers event.preview and cuts it with an ellipsis', () => {
    const event = parseEvent({ ...base, preview: 'Hello, I need help' })
    expect(getPreview(event)).toBe('Hello, I need help')
    expect(getPreview(event, { maxLength: 10 })).toBe('Hello, I …')
    expect(getPreview(event, { maxLength: 10 })).toHaveLength(10)
    expect(getPreview(event, { maxLength: 18 })).toBe('Hello, I need help')
  })

  it('does not split characters outside the BMP', () => {
    const event = parseEvent({ ...base, preview: '😀😀😀😀' })
    expect(getPreview(event, { maxLength: 3 })).toBe('😀😀…')
  })

  it('derives a preview from the payload when preview is blank', () => {
    expect(getPreview(parseEvent(base))).toBe('hello there')
    const location = parseEvent({ ...base, type: 'location', payload: { latitude: 1.5, longitude: 2 } })
    expect(getPreview(location)).toBe('1.5, 2')
    const carousel = parseEvent({
      ...base,
      type: 'carousel',
      payload: { items: [{ title: 'A', actions: [] }, { title: 'B', actions: [] }] },
    })
    expect(getPreview(carousel)).toBe('A, B')
    expect(getPreview(parseEvent({ ...base, type: 'custom', payload: {} }))).toBe('')
  })

  it('refuses a maxLength that is not a positive integer', () => {
    expect(() => getPreview(parseEvent(base), { maxLength: 0 })).toThrow('maxLength must be a positive integer')
    expect(() => getPreview(parseEvent(base), { maxLength: 2.5 })).toThrow(RangeError)
  })
})

describe('direction, tags, trigger and everyday accessors', () => {
  const event = parseEvent({
    ...base,
    conversationId: 'conv_1',
    userId: 'user_1',
    tags: { conversation: { topic: 'billing' } },
    trigger: { flowId: 'f', nodeId: 'n' },
    internal: 42,
  })

  it('tells incoming from outgoing', () => {
    expect(isIncoming(event)).toBe(true)
    expect(isOutgoing(event)).toBe(false)
    expect(isOutgoing(parseEvent({ ...base, direction: 'outgoing' }))).toBe(true)
  })

  it('reads tags by scope, frozen, empty when absent', () => {
    expect(getTags(event, 'conversation')).toEqual({ topic: 'billing' })
    expect(Object.isFrozen(getTags(event, 'conversation'))).toBe(true)
    expect(getTags(event, 'user')).toEqual({})
    expect(getTag(event, 'conversation', 'topic')).toBe('billing')
    expect(getTag(event, 'conversation', 'toString')).toBeUndefined()
    expect(getTag(event, 'message', 'x')).toBeUndefined()
    expect(() => getTags(event, 'workspace' as 'user')).toThrow('Tag scope must be')
  })

  it('reads the trigger, ids, text and extra fields', () => {
    expect(getTrigger(event)).toEqual({ flowId: 'f', nodeId: 'n' })
    expect(getTrigger(parseEvent(base))).toBeUndefined()
    expect(getConversationId(event)).toBe('conv_1')
    expect(getUserId(event)).toBe('user_1')
    expect(isTextEvent(event)).toBe(true)
    expect(getText(event)).toBe('hello there')
    expect(getText(parseEvent({ ...base, type: 'image', payload: { imageUrl: 'https://e.com/a.png' } }))).toBeUndefined()
    expect(getExtraFields(event)).toEqual({ internal: 42 })
  })
})
