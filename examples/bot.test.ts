/**
 * Unit-testing bot code with the testing kit: fake events, a memory logger, and signed webhook requests.
 * Run it: npx vitest run examples/bot.test.ts
 * (In your own tests, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { describe, expect, it } from 'vitest'
import { createRuntime, createWebhookHandler, getTag } from '../src/index.js'
import { createFakeClock, createMemoryLogger, fakeImageEvent, fakeTextEvent, signWebhookRequest } from '../src/testing/index.js'
import { tagConversation, topicOf } from './tag-conversation-hook.js'

describe('tag-conversation hook', () => {
  it('finds topics by keyword', () => {
    expect(topicOf('This charge is wrong')).toBe('billing')
    expect(topicOf('where is my package?')).toBe('shipping')
    expect(topicOf('hello')).toBeUndefined()
  })

  it('tags the conversation of a billing message and logs it', async () => {
    const logger = createMemoryLogger()
    const runtime = createRuntime({ hooks: [tagConversation], logger })
    const report = await runtime.dispatch(fakeTextEvent('I need a refund', { conversationId: 'conv_1' }))
    expect(getTag(report.event, 'conversation', 'topic')).toBe('billing')
    expect(logger.records).toEqual([expect.objectContaining({ msg: 'tagged conversation', topic: 'billing', hook: 'tag-conversation' })])
  })

  it('keeps an existing topic and other tags', async () => {
    const runtime = createRuntime({ hooks: [tagConversation], logger: createMemoryLogger() })
    const event = fakeTextEvent('my password expired', { tags: { conversation: { topic: 'billing', lang: 'en' } } })
    const report = await runtime.dispatch(event)
    expect(report.event.tags?.conversation).toEqual({ topic: 'billing', lang: 'en' })
  })

  it('leaves non-text events alone', async () => {
    const runtime = createRuntime({ hooks: [tagConversation], logger: createMemoryLogger() })
    const report = await runtime.dispatch(fakeImageEvent({ title: 'refund receipt' }))
    expect(report.hooks[0]).toMatchObject({ status: 'skipped', skipReason: 'type' })
    expect(report.event.tags).toBeUndefined()
  })

  it('runs behind the webhook receiver', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
    const clock = createFakeClock()
    const runtime = createRuntime({ hooks: [tagConversation], logger: createMemoryLogger() })
    const handler = createWebhookHandler({ runtime, secret, now: clock.now })
    const request = signWebhookRequest({ payload: fakeTextEvent('tracking number?'), secret, timestamp: clock.now() })
    const response = await handler(request)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ ok: true, hooks: { ok: 1 } })
  })
})
