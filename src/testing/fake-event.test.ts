import { describe, expect, it } from 'vitest'
import { EventValidationError, isEventOfType } from '../event/index.js'
import { createFakeClock } from './fake-clock.js'
import {
  FAKE_EVENT_TIME,
  fakeAudioEvent,
  fakeCardEvent,
  fakeCarouselEvent,
  fakeChoiceEvent,
  fakeDropdownEvent,
  fakeEvent,
  fakeFileEvent,
  fakeImageEvent,
  fakeLocationEvent,
  fakeMarkdownEvent,
  fakeTextEvent,
  fakeVideoEvent,
  fakeUntypedEvent,
  resetFakes,
  FAKE_EVENT_STEP_MS,
} from './fake-event.js'
import { signWebhookRequest } from './sign-webhook-request.js'

describe('fakeEvent', () => {
  it('is deterministic: same seed, same event; another seed, other ids', () => {
    expect(fakeEvent({}, { seed: 7 })).toEqual(fakeEvent({}, { seed: 7 }))
    const a = fakeEvent({}, { seed: 1 })
    const b = fakeEvent({}, { seed: 2 })
    expect(a.id).not.toBe(b.id)
    expect(a.botId).not.toBe(b.botId)
    expect(a.id).toMatch(/^evt_[0-9a-z]{20}$/)
    expect(a.createdOn.toISOString()).toBe(FAKE_EVENT_TIME.toISOString())
  })

  it('gives each fake without a seed its own id, message id and a later time, in one conversation', () => {
    resetFakes()
    const [a, b] = [fakeTextEvent('one'), fakeTextEvent('two')]
    expect(a.id).not.toBe(b.id)
    expect(a.messageId).not.toBe(b.messageId)
    expect(b.createdOn.getTime() - a.createdOn.getTime()).toBe(FAKE_EVENT_STEP_MS)
    expect(a.createdOn.toISOString()).toBe(FAKE_EVENT_TIME.toISOString())
    expect([b.botId, b.conversationId, b.userId]).toEqual([a.botId, a.conversationId, a.userId])
    resetFakes()
    expect(fakeTextEvent('one').id).toBe(a.id)
  })

  it('reads createdOn from a test clock when given one', () => {
    const clock = createFakeClock('2025-03-01T00:00:00Z')
    expect(fakeEvent({}, { clock: clock.now }).createdOn.toISOString()).toBe('2025-03-01T00:00:00.000Z')
    clock.advance(5000)
    expect(fakeEvent({}, { clock: clock.now }).createdOn.toISOString()).toBe('2025-03-01T00:00:05.000Z')
  })

  it('is a valid incoming text event by default', () => {
    const event = fakeEvent()
    expect(event).toMatchObject({ direction: 'incoming', type: 'text', payload: { text: 'Hello' }, preview: 'Hello', state: {} })
    expect(isEventOfType(event, 'text')).toBe(true)
  })

  it('merges overrides deeply, replaces arrays, removes keys set to undefined', () => {
    const event = fakeEvent({
      tags: { conversation: { topic: 'billing' } },
      kb: { included: [{ id: 'kb_1' }] },
      conversationId: undefined,
      createdOn: '2024-06-01T00:00:00+02:00',
      state: { step: 1 },
    })
    expect(event.tags).toEqual({ conversation: { topic: 'billing' } })
    expect(event.kb).toEqual({ included: [{ id: 'kb_1' }] })
    expect('conversationId' in event).toBe(false)
    expect(event.createdOn.toISOString()).toBe('2024-05-31T22:00:00.000Z')
    expect(event.state).toEqual({ step: 1 })
  })

  it('starts from the sample payload of an overridden built-in type, and the preview follows the payload', () => {
    const image = fakeEvent({ type: 'image' })
    expect(image.payload).toEqual({ imageUrl: 'https://example.com/image.png' })
    expect(fakeEvent({ payload: { text: 'Bye' } }).preview).toBe('Bye')
    expect(fakeEvent({ payload: { text: 'Bye' }, preview: 'custom' }).preview).toBe('custom')
    expect(fakeUntypedEvent('custom').payload).toEqual({})
  })

  it('validates the result and throws EventValidationError for a wrong override', () => {
    expect(() => fakeEvent({ direction: 'sideways' as 'incoming' })).toThrow(EventValidationError)
    expect(() => fakeEvent({ trigger: { flowId: 'f' } })).toThrow('trigger.nodeId: expected string, received missing')
    expect(() => fakeEvent({ type: 'image', payload: { imageUrl: 'nope' } })).toThrow('payload.imageUrl')
  })
})

describe('typed fakes', () => {
  it('gives the text and preview of fakeTextEvent', () => {
    const event = fakeTextEvent('I want a refund', { conversationId: 'conv_1' })
    expect(event.payload.text).toBe('I want a refund')
    expect(event.preview).toBe('I want a refund')
    expect(event.conversationId).toBe('conv_1')
  })

  it.each([
    ['markdown', () => fakeMarkdownEvent('# T')],
    ['image', () => fakeImageEvent({ title: 'Receipt' })],
    ['audio', () => fakeAudioEvent()],
    ['video', () => fakeVideoEvent()],
    ['file', () => fakeFileEvent({ filename: 'a.pdf' })],
    ['location', () => fakeLocationEvent({ latitude: 1 })],
    ['card', () => fakeCardEvent(undefined, { direction: 'outgoing' })],
    ['carousel', () => fakeCarouselEvent()],
    ['choice', () => fakeChoiceEvent()],
    ['dropdown', () => fakeDropdownEvent({ text: 'Country?' })],
  ] as const)('builds a valid %s event', (type, make) => {
    const event = make()
    expect(event.type).toBe(type)
    expect(isEventOfType(event, type)).toBe(true)
    expect(event.preview).not.toBe('')
  })

  it('applies payload fields over the sample', () => {
    expect(fakeLocationEvent({ latitude: 1 }).payload).toMatchObject({ latitude: 1, longitude: -73.5673 })
    expect(fakeImageEvent({ title: 'Receipt' }).preview).toBe('Receipt')
    expect(() => fakeLocationEvent({ latitude: 100 })).toThrow('payload.latitude')
  })
})

describe('createFakeClock', () => {
  it('starts at 2024-01-01, moves by hand, and its now is bound', () => {
    const clock = createFakeClock()
    const { now } = clock
    expect(now().toISOString()).toBe('2024-01-01T00:00:00.000Z')
    clock.advance(1500)
    expect(now().toISOString()).toBe('2024-01-01T00:00:01.500Z')
    clock.set('2025-02-03T04:05:06Z')
    expect(now().getTime()).toBe(Date.parse('2025-02-03T04:05:06Z'))
    expect(() => clock.set('garbage')).toThrow('invalid time')
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
  })
})

describe('signWebhookRequest', () => {
  it('builds a POST with Standard Webhooks headers and a fresh id each time', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const a = signWebhookRequest({ payload: { x: 1 }, secret, timestamp: 1714557600 })
    const b = signWebhookRequest({ payload: { x: 1 }, secret, timestamp: 1714557600 })
    expect(a.method).toBe('POST')
    expect(a.url).toBe('http://localhost/webhook')
    expect(a.headers.get('webhook-timestamp')).toBe('1714557600')
    expect(a.headers.get('webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(a.headers.get('webhook-id')).not.toBe(b.headers.get('webhook-id'))
    expect(await a.text()).toBe('{"x":1}')
    const fixed = signWebhookRequest({ payload: 'raw', secret, id: 'msg_1', timestamp: new Date(1714557600_000), url: 'http://h/x' })
    expect(fixed.headers.get('webhook-id')).toBe('msg_1')
    expect(fixed.url).toBe('http://h/x')
    expect(await fixed.text()).toBe('raw')
  })
})
