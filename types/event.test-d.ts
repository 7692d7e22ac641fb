import { expectAssignable, expectError, expectNotAssignable, expectType } from 'tsd'
import { z } from 'zod'
import {
  defineEventType,
  defineEventTypes,
  defineHook,
  defineTagKeys,
  isKnownEvent,
  type KnownEvent,
  EventSchema,
  getTag,
  getTags,
  getTrigger,
  isEventOfType,
  isTextEvent,
  parseEvent,
  safeParseEvent,
  serializeEvent,
  type BotEvent,
  type EventDirection,
  type EventTags,
  type Kb,
  type Trigger,
} from 'botshelf'

declare const event: BotEvent

// Required fields and their types.
expectType<string>(event.botId)
expectType<string>(event.id)
expectType<Date>(event.createdOn)
expectType<EventDirection>(event.direction)
expectType<'incoming' | 'outgoing'>(event.direction)
expectType<Record<string, unknown>>(event.payload)
expectType<string>(event.preview)
expectType<Record<string, unknown>>(event.state)
expectType<string>(event.type)

// Optional fields.
expectType<string | undefined>(event.conversationId)
expectType<string | undefined>(event.integration)
expectType<string | undefined>(event.messageId)
expectType<string | undefined>(event.userId)
expectType<Kb | undefined>(event.kb)
expectType<EventTags | undefined>(event.tags)
expectType<Trigger | undefined>(event.trigger)

// Required within their objects.
declare const trigger: Trigger
expectType<string>(trigger.flowId)
expectType<string>(trigger.nodeId)
expectType<string | undefined>(trigger.eventName)
expectType<string | undefined>(trigger.conversationId)
declare const kb: Kb
expectType<Record<string, unknown>[]>(kb.included)
expectType<Record<string, unknown>[] | undefined>(kb.results)
declare const tags: EventTags
expectType<Record<string, string> | undefined>(tags.conversation)

// The typed fields are the whole type: a typo does not compile, hidden structures are not `any`.
expectError(event.conversationID)
expectError(event.state.anything.deeper)
expectNotAssignable<BotEvent>({ botId: 'b', id: 'e', createdOn: new Date(), direction: 'sideways', payload: {}, preview: '', state: {}, type: 't' })
expectAssignable<BotEvent>({ botId: 'b', id: 'e', createdOn: new Date(), direction: 'incoming', payload: {}, preview: '', state: {}, type: 't' })

// Parsing.
expectType<BotEvent>(parseEvent({}))
const result = safeParseEvent({})
if (result.success) expectType<BotEvent>(result.event)
else expectType<'INVALID_EVENT'>(result.error.code)
expectType<string>(serializeEvent(event).createdOn)
expectAssignable<BotEvent>(EventSchema.parse({}))

// Payload narrowing of built-in types.
if (isEventOfType(event, 'text')) {
  expectType<string>(event.payload.text)
  expectType<'text'>(event.type)
}
if (isEventOfType(event, 'location')) {
  expectType<number>(event.payload.latitude)
  expectType<string | undefined>(event.payload.address)
}
if (isEventOfType(event, 'carousel')) {
  expectType<string>(event.payload.items[0]!.title)
}
if (isTextEvent(event)) expectType<string>(event.payload.text)
if (isEventOfType(event, 'image')) expectError(event.payload.text.toUpperCase())

// An unknown type name is a compile error (it used to compile and silently never match).
expectError(isEventOfType(event, 'txet'))
expectError(isEventOfType(event, 'somethingElse'))

// A user-defined type narrows through its definition...
const Order = defineEventType('order', z.object({ orderId: z.string(), total: z.number() }))
if (Order.is(event)) {
  expectType<string>(event.payload.orderId)
  expectType<'order'>(event.type)
}
if (isEventOfType(event, Order)) expectType<number>(event.payload.total)

// ...and by name once declared in the registry (module augmentation).
declare module 'botshelf' {
  interface EventTypeRegistry {
    refund: { refundId: string; amount: number }
  }
}
if (isEventOfType(event, 'refund')) expectType<number>(event.payload.amount)
// A hook's `types` narrows registered user types too.
defineHook({
  name: 'refunds',
  point: 'afterIncoming',
  types: ['refund'],
  handler: ({ event: refund }) => expectType<number>(refund.payload.amount),
})

// A hook's `types` refuses an unknown name.
expectError(defineHook({ name: 'typo', point: 'afterIncoming', types: ['txt'], handler: () => undefined }))

// Outside hooks, the union of registered types narrows with `switch (event.type)`.
if (isKnownEvent(event)) {
  switch (event.type) {
    case 'text':
      expectType<string>(event.payload.text)
      break
    case 'location':
      expectType<number>(event.payload.latitude)
      break
    case 'refund':
      expectType<number>(event.payload.amount)
      break
    case 'image':
      expectError(event.payload.text.length)
      break
  }
}
declare const known: KnownEvent
if (known.type === 'markdown') expectType<string>(known.payload.markdown)

// A bot's own types: declared once by their schema, no `declare module`.
const types = defineEventTypes({ invoice: z.object({ invoiceId: z.string(), amount: z.number() }) })
const parsed = types.parse({})
switch (parsed.type) {
  case 'invoice':
    expectType<number>(parsed.payload.amount)
    break
  case 'text':
    expectType<string>(parsed.payload.text)
    break
}
if (types.is(event, 'invoice')) expectType<string>(event.payload.invoiceId)
expectError(types.is(event, 'invoise'))
expectType<'invoice'>(types.definition('invoice').type)
expectError(types.definition('text'))

// Typed tag keys.
const tagKeys = defineTagKeys({ conversation: ['topic'], user: ['plan'] })
expectType<string | undefined>(tagKeys.get(event, 'conversation', 'topic'))
expectError(tagKeys.get(event, 'conversation', 'plan'))
expectError(tagKeys.get(event, 'message', 'topic'))
expectType<BotEvent>(tagKeys.set(event, 'user', 'plan', 'pro'))
expectError(tagKeys.set(event, 'user', 'plan', 3))

// Tags and trigger helpers.
expectType<Readonly<Record<string, string>>>(getTags(event, 'conversation'))
expectType<string | undefined>(getTag(event, 'user', 'plan'))
expectError(getTags(event, 'workspace'))
expectType<Trigger | undefined>(getTrigger(event))
