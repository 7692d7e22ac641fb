import { describe, expect, it } from 'vitest'
import { EventValidationError } from './event-validation-error.js'
import { parseEvent, safeParseEvent } from './parse-event.js'
import { serializeEvent } from './serialize-event.js'

const valid = {
  botId: 'bot_1',
  createdOn: '2024-05-01T12:00:00.250+02:00',
  direction: 'incoming',
  id: 'evt_1',
  payload: { text: 'hello' },
  preview: 'hello',
  state: {},
  type: 'text',
}

describe('parseEvent', () => {
  it('accepts the required fields alone and turns createdOn into a Date', () => {
    const event = parseEvent(valid)
    expect(event.createdOn).toBeInstanceOf(Date)
    expect(event.createdOn.toISOString()).toBe('2024-05-01T10:00:00.250Z')
    expect(event.conversationId).toBeUndefined()
  })

  it.each(['botId', 'createdOn', 'direction', 'id', 'payload', 'preview', 'state', 'type'])(
    'refuses an event without %s and names the field',
    (field) => {
      const input: Record<string, unknown> = { ...valid }
      delete input[field]
      const result = safeParseEvent(input)
      expect(result.success).toBe(false)
      expect(result.error?.issues.map((i) => i.path)).toContain(field)
      expect(result.error?.message).toContain(`${field}: expected`)
    },
  )

  it('accepts every optional field', () => {
    const event = parseEvent({
      ...valid,
      conversationId: 'conv_1',
      integration: 'telegram',
      kb: { included: [{ id: 'kb_1', anything: [1, 2] }], results: [{ score: 0.5 }] },
      messageId: 'msg_1',
      tags: { conversation: { topic: 'billing' }, message: {}, user: { plan: 'pro' } },
      trigger: { flowId: 'flow_1', nodeId: 'node_1', eventName: 'x', conversationId: 'c', integration: 'i', userId: 'u' },
      userId: 'user_1',
    })
    expect(event.kb?.included[0]).toEqual({ id: 'kb_1', anything: [1, 2] })
    expect(event.trigger?.flowId).toBe('flow_1')
    expect(event.tags?.user?.['plan']).toBe('pro')
  })

  it('requires kb.included, trigger.flowId and trigger.nodeId within their objects', () => {
    const result = safeParseEvent({ ...valid, kb: { results: [] }, trigger: { eventName: 'x' } })
    expect(result.success).toBe(false)
    const paths = result.error!.issues.map((i) => i.path)
    expect(paths).toEqual(expect.arrayContaining(['kb.included', 'trigger.flowId', 'trigger.nodeId']))
  })

  it('reports a wrong direction in plain words', () => {
    const result = safeParseEvent({ ...valid, direction: 'sideways' })
    expect(result.error?.issues[0]?.message).toBe('direction: expected "incoming" | "outgoing", received "sideways"')
    expect(result.error?.code).toBe('INVALID_EVENT')
    expect(result.error?.message).toBe('Invalid event: direction: expected "incoming" | "outgoing", received "sideways"')
  })

  it('lists every issue at once, payload included', () => {
    const result = safeParseEvent({ ...valid, direction: 1, botId: 2, payload: { text: 3 } })
    expect(result.error?.issues.map((i) => i.path)).toEqual(['botId', 'direction', 'payload.text'])
  })

  it('keeps extra top-level properties but never lets them replace typed fields', () => {
    const event = parseEvent({ ...valid, traceId: 'abc', nested: { a: 1 } })
    expect((event as unknown as Record<string, unknown>)['traceId']).toBe('abc')
    expect(safeParseEvent({ ...valid, id: 42 }).success).toBe(false)
  })

  it('refuses tags that are not string maps and unknown tag values', () => {
    const result = safeParseEvent({ ...valid, tags: { user: { plan: 3 } } })
    expect(result.error?.issues[0]?.path).toBe('tags.user.plan')
  })

  it('keeps hidden structures as open records but refuses non-objects there', () => {
    expect(parseEvent({ ...valid, state: { deep: { x: [1] } } }).state).toEqual({ deep: { x: [1] } })
    expect(safeParseEvent({ ...valid, state: 'nope' }).error?.issues[0]?.path).toBe('state')
    expect(safeParseEvent({ ...valid, kb: { included: ['nope'] } }).error?.issues[0]?.path).toBe('kb.included.0')
  })

  it('throws EventValidationError from parseEvent', () => {
    expect(() => parseEvent({})).toThrow(EventValidationError)
    expect(() => parseEvent('not an event')).toThrow('(root): expected object, received "not an event"')
  })
})

describe('createdOn', () => {
  it.each([
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000Z'],
    ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123Z'],
    ['2024-05-01T05:30:00-04:30', '2024-05-01T10:00:00.000Z'],
    ['2024-05-01T12:00:00+0200', '2024-05-01T10:00:00.000Z'],
    ['2024-05-01T11:00+01', '2024-05-01T10:00:00.000Z'],
  ])('accepts %s', (input, iso) => {
    expect(parseEvent({ ...valid, createdOn: input }).createdOn.toISOString()).toBe(iso)
  })

  it('accepts a Date and copies it', () => {
    const date = new Date('2024-05-01T10:00:00Z')
    const event = parseEvent({ ...valid, createdOn: date })
    expect(event.createdOn.getTime()).toBe(date.getTime())
    expect(event.createdOn).not.toBe(date)
  })

  it.each(['2024-13-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-05-01T10:00:00', 'yesterday', '', '1714557600000'])(
    'refuses %j and names the field',
    (input) => {
      const result = safeParseEvent({ ...valid, createdOn: input })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.path).toBe('createdOn')
      expect(result.error?.message).toContain('createdOn: expected an ISO 8601 date-time')
    },
  )

  it('refuses an invalid Date and a number', () => {
    expect(safeParseEvent({ ...valid, createdOn: new Date('nope') }).error?.message).toContain('received Invalid Date')
    expect(safeParseEvent({ ...valid, createdOn: 1714557600000 }).error?.issues[0]?.path).toBe('createdOn')
  })
})

describe('serializeEvent', () => {
  it('gives ISO 8601 back and round-trips through JSON', () => {
    const event = parseEvent({ ...valid, extra: true })
    const json = serializeEvent(event)
    expect(json.createdOn).toBe('2024-05-01T10:00:00.250Z')
    const again = parseEvent(JSON.parse(JSON.stringify(json)))
    expect(again).toEqual(event)
  })
})
