import { expectAssignable, expectError, expectType } from 'tsd'
import { z } from 'zod'
import type { Client } from 'botshelf/client'
import {
  createRuntime,
  createWebhookHandler,
  defineAction,
  defineHook,
  type BotEvent,
  type DispatchReport,
  type HookReport,
  type Logger,
} from 'botshelf'

// Handler context types.
defineHook({
  name: 'context',
  point: 'afterIncoming',
  handler: ({ event, client, logger, signal }) => {
    expectAssignable<BotEvent>(event)
    expectType<'incoming'>(event.direction)
    expectType<Client>(client)
    expectType<Logger>(logger)
    expectType<AbortSignal>(signal)
  },
})

// Outgoing points see outgoing events.
defineHook({ name: 'out', point: 'afterOutgoing', handler: ({ event }) => expectType<'outgoing'>(event.direction) })

// `types` narrows the payload.
defineHook({
  name: 'texts',
  point: 'beforeIncoming',
  types: ['text'],
  handler: ({ event }) => {
    expectType<string>(event.payload.text)
  },
})
defineHook({
  name: 'media',
  point: 'afterIncoming',
  types: ['image', 'video'],
  handler: ({ event }) => {
    if (event.type === 'image') expectType<string>(event.payload.imageUrl)
    else expectType<string>(event.payload.videoUrl)
  },
})

// A before-hook returns its own narrowed event: a payload that breaks the type does not compile.
defineHook({ name: 'keep', point: 'beforeIncoming', types: ['text'], handler: ({ event }) => ({ ...event, payload: { text: event.payload.text.trim() } }) })
expectError(defineHook({ name: 'break', point: 'beforeIncoming', types: ['text'], handler: ({ event }) => ({ ...event, payload: { text: 42 } }) }))
expectError(defineHook({ name: 'flip', point: 'beforeIncoming', handler: ({ event }) => ({ ...event, direction: 'outgoing' as const }) }))

// Hooks defined outside a bot may run any action (untyped) and have no state.
defineHook({
  name: 'loose',
  point: 'afterIncoming',
  handler: async ({ runAction, state }) => {
    expectType<unknown>(await runAction('anything', { any: 'input' }))
    expectError(state.conversation)
  },
})

// Before-hooks may return a changed event or { stop: true }; after-hooks may not.
defineHook({ name: 'stop', point: 'beforeIncoming', handler: () => ({ stop: true as const }) })
defineHook({ name: 'change', point: 'beforeOutgoing', handler: ({ event }) => ({ ...event, preview: 'x' }) })
expectError(defineHook({ name: 'bad-stop', point: 'afterIncoming', handler: () => ({ stop: true as const }) }))
// An unknown point does not compile.
expectError(defineHook({ name: 'x', point: 'beforeEverything', handler: () => undefined }))

// Action input/output inference.
const add = defineAction({
  name: 'add',
  input: z.object({ a: z.number(), b: z.number().default(0) }),
  output: z.object({ sum: z.number(), at: z.string().transform((s) => new Date(s)) }),
  handler: ({ input, event, client, logger, signal }) => {
    expectType<{ a: number; b: number }>(input)
    expectType<BotEvent>(event)
    expectType<Client>(client)
    expectType<Logger>(logger)
    expectType<AbortSignal>(signal)
    return { sum: input.a + input.b, at: '2024-01-01T00:00:00Z' }
  },
})
expectError(
  defineAction({ name: 'wrong', input: z.object({}), output: z.object({ n: z.number() }), handler: () => ({ n: 'one' }) }),
)
const echo = defineAction({ name: 'echo', input: z.string(), output: z.string(), handler: ({ input }) => input })

const runtime = createRuntime({ actions: [add, echo], hooks: [] })
declare const event: BotEvent
expectType<Promise<{ sum: number; at: Date }>>(runtime.runAction('add', { a: 1 }, { event }))
expectType<Promise<string>>(runtime.runAction('echo', 'hi', { event }))
expectError(runtime.runAction('add', { a: '1' }, { event }))
expectError(runtime.runAction('missing', {}, { event }))
expectError(runtime.runAction('echo', 3, { event }))

// Dispatch report.
expectType<Promise<DispatchReport>>(runtime.dispatch({}))
declare const report: HookReport
expectType<'ok' | 'error' | 'timeout' | 'skipped'>(report.status)

// Webhook handler is a fetch handler; the secret is required.
expectType<(request: Request) => Promise<Response>>(createWebhookHandler({ runtime, secret: 'whsec_abc' }))
expectError(createWebhookHandler({ runtime }))

// Hooks narrowed by point and types fit in one runtime.
createRuntime({
  hooks: [
    defineHook({ name: 't', point: 'beforeIncoming', types: ['text'], handler: ({ event }) => void event.payload.text }),
    defineHook({ name: 'o', point: 'afterOutgoing', handler: () => undefined }),
  ],
})
