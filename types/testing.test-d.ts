import { expectError, expectType } from 'tsd'
import { z } from 'zod'
import { defineAction, defineEventTypes, type BotEvent, type DispatchReport } from 'botshelf'
import {
  createFakeClock,
  createTestBot,
  fakeEvent,
  fakeEventOfType,
  fakeImageEvent,
  fakeTextEvent,
  fakeUntypedEvent,
  signWebhookRequest,
  startConversation,
  type TranscriptTurn,
} from 'botshelf/testing'

expectType<'text'>(fakeEvent().type)
expectType<BotEvent['id']>(fakeEvent({ direction: 'outgoing', tags: { conversation: { topic: 'x' } } }, { seed: 3 }).id)
fakeEvent({ createdOn: '2024-01-01T00:00:00Z' })
fakeEvent({ createdOn: new Date() })
fakeEvent({ trigger: { flowId: 'f' } })
fakeEvent({}, { clock: createFakeClock().now })

// Wrong overrides are rejected.
expectError(fakeEvent({ direction: 'sideways' }))
expectError(fakeEvent({ conversationID: 'typo' }))
expectError(fakeEvent({ botId: 42 }))
expectError(fakeEvent({ tags: { conversation: { topic: 1 } } }))
expectError(fakeEvent({ trigger: { flowId: 1 } }))
expectError(fakeEvent({}, { seed: 'one' }))

// Fakes are typed by their event type; an unknown type name does not compile.
expectError(fakeTextEvent('x', { payload: { text: 5 } }))
expectError(fakeEvent({ type: 'txet' }))
expectError(fakeEvent({ type: 'image', payload: { imageUrl: 3 } }))
expectType<string>(fakeEvent({ type: 'image' }).payload.imageUrl)
expectType<string>(fakeTextEvent('hi').payload.text)
expectType<'text'>(fakeTextEvent('hi').type)
expectType<string>(fakeImageEvent().payload.imageUrl)
expectError(fakeImageEvent({ imageUrl: 3 }))
expectType<BotEvent>(fakeUntypedEvent('custom', { a: 1 }))

// A bot's own types.
const types = defineEventTypes({ order: z.object({ orderId: z.string(), total: z.number() }) })
expectType<number>(fakeEventOfType(types, 'order', { orderId: 'o', total: 1 }).payload.total)
expectError(fakeEventOfType(types, 'order', { orderId: 'o', total: '1' }))
expectError(fakeEventOfType(types, 'ordr', { orderId: 'o', total: 1 }))

expectType<Request>(signWebhookRequest({ payload: fakeEvent(), secret: 'whsec_x' }))
expectType<Date>(createFakeClock().now())

// The test bot's type names its actions, also through ReturnType.
const add = defineAction({ name: 'add', input: z.object({ a: z.number() }), output: z.number(), handler: ({ input }) => input.a })
type AnyTestBot = Awaited<ReturnType<typeof createTestBot>>
expectType<string>(null as unknown as Parameters<AnyTestBot['runAction']>[0])
const bot = await createTestBot({ actions: [add] })
expectType<Promise<number>>(bot.runAction('add', { a: 1 }))
expectError(bot.runAction('sub', { a: 1 }))

// The conversation driver.
const chat = startConversation(bot)
expectType<Promise<DispatchReport>>(chat.send('hi'))
expectError(chat.sendEvent({ type: 'txet' }))
expectType<TranscriptTurn[]>(chat.transcript())
