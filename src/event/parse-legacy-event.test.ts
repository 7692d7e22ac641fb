import { describe, expect, it } from 'vitest'
import { EventValidationError } from './event-validation-error.js'
import { parseEvent, safeParseEvent } from './parse-event.js'
import { parseLegacyEvent } from './parse-legacy-event.js'

const current = {
  id: 'evt_1',
  botId: 'bot_1',
  createdOn: '2024-05-01T10:00:00Z',
  direction: 'incoming',
  type: 'text',
  payload: { text: 'hi' },
  preview: 'hi',
  state: {},
}

// A Botpress v12 IO.Event as the v12 server serialises it (target = user, threadId = conversation, channel).
const v12Event = {
  id: '1714557600000',
  botId: 'support',
  channel: 'web',
  target: 'user_9',
  threadId: 'thread_3',
  direction: 'incoming',
  type: 'text',
  payload: { type: 'text', text: 'hello' },
  createdOn: '2024-05-01T10:00:00.000Z',
  preview: 'hello',
  flags: {},
  nlu: { intent: { name: 'none' } },
}

// A Cloud API webhook event: createdAt, no direction, state or preview.
const cloudEvent = {
  id: 'evt_cloud',
  type: 'text',
  payload: { text: 'from the cloud' },
  conversationId: 'conv_1',
  userId: 'user_1',
  messageId: 'msg_1',
  createdAt: '2024-05-01T10:00:00.000Z',
}

describe('parseLegacyEvent', () => {
  it('maps nothing for a current event', () => {
    expect(parseLegacyEvent(current).mapped).toEqual([])
  })

  it('maps a Botpress v12 IO.Event and says what it mapped', () => {
    const { event, mapped } = parseLegacyEvent(v12Event)
    expect(event).toMatchObject({ userId: 'user_9', conversationId: 'thread_3', integration: 'web', state: {} })
    expect(mapped).toEqual(['threadId → conversationId (Botpress v12)', 'target → userId (Botpress v12)', 'channel → integration (Botpress v12)', 'state: missing → {}'])
  })

  it('maps a Cloud API event wrapped in { event }, with the bot id from the options', () => {
    const { event, mapped } = parseLegacyEvent({ event: cloudEvent }, { botId: 'bot_7' })
    expect(event).toMatchObject({ botId: 'bot_7', direction: 'incoming', preview: 'from the cloud', conversationId: 'conv_1' })
    expect(event.createdOn.toISOString()).toBe('2024-05-01T10:00:00.000Z')
    expect(mapped).toEqual([
      'body.event → the event (the body wrapped it)',
      'createdAt → createdOn (Cloud API)',
      'botId: missing → "bot_7" (from the options)',
      'direction: missing → "incoming"',
      'state: missing → {}',
      'preview: missing → derived from the payload',
    ])
  })

  it('still refuses what it cannot map, naming the field', () => {
    expect(() => parseLegacyEvent(cloudEvent)).toThrow('botId: expected string, received missing')
    expect(() => parseLegacyEvent('text')).toThrow(EventValidationError)
  })
})

describe('strict refusals hint at the likely cause', () => {
  it('names a wrapped body', () => {
    const result = safeParseEvent({ event: current })
    expect(result.error?.hints).toEqual(['the body wraps the event as { event: {...} }: pass body.event, or use parseLegacyEvent'])
    expect(result.error?.message).toContain('Likely cause: the body wraps the event')
  })

  it('names createdAt and a v12 event', () => {
    expect(() => parseEvent(cloudEvent)).toThrow('createdAt found where createdOn was expected')
    const { botId: _botId, ...v12WithoutBot } = v12Event
    expect(safeParseEvent(v12WithoutBot).error?.hints).toEqual([
      'target/threadId/channel found (a Botpress v12 IO.Event?): use parseLegacyEvent to map them to userId/conversationId/integration',
    ])
  })

  it('gives no hint when nothing suggests one', () => {
    const result = safeParseEvent({ ...current, direction: 'sideways' })
    expect(result.error?.hints).toEqual([])
    expect(result.error?.toJSON()).not.toHaveProperty('hints')
  })
})
