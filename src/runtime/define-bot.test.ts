import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineEventTypes, EventValidationError } from '../event/index.js'
import { fakeEventOfType, fakeTextEvent, fakeUntypedEvent } from '../testing/fake-event.js'
import { createMemoryLogger } from '../testing/memory-logger.js'
import { defineAction } from './define-action.js'
import { defineBot } from './define-bot.js'
import { RuntimeDefinitionError } from './errors.js'
import { createMemoryStateStore } from './state/memory-state-store.js'

const add = defineAction({
  name: 'add',
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.object({ sum: z.number() }),
  handler: ({ input }) => ({ sum: input.a + input.b }),
})
const types = defineEventTypes({ order: z.object({ orderId: z.string(), total: z.number().nonnegative() }) })
const bot = defineBot({ eventTypes: types, actions: [add], state: { conversation: z.object({ total: z.number().default(0) }) } })
const logger = createMemoryLogger()

describe('defineBot', () => {
  it('runs an action from a hook, typed by the bot, and reports the call', async () => {
    const sumOrder = bot.defineHook({
      name: 'sum-order',
      point: 'afterIncoming',
      types: ['order'],
      handler: async ({ event, runAction, state }) => {
        const { sum } = await runAction('add', { a: state.conversation.total, b: event.payload.total })
        state.conversation.total = sum
      },
    })
    const runtime = bot.createRuntime({ hooks: [sumOrder], logger })
    const order = (total: number) => fakeEventOfType(types, 'order', { orderId: 'o1', total }, { conversationId: 'c1' })
    await runtime.dispatch(order(5))
    const report = await runtime.dispatch(order(7))
    expect(report.actions).toEqual([{ action: 'add', hook: 'sum-order', input: { a: 5, b: 7 }, status: 'ok', output: { sum: 12 } }])
    expect(report.state).toMatchObject([{ scope: 'conversation', before: { total: 5 }, after: { total: 12 }, saved: true }])
  })

  it('checks the payloads of its own types before the hooks; another runtime does not know them', async () => {
    const runtime = bot.createRuntime({ logger })
    const bad = fakeUntypedEvent('order', { orderId: 'o1', total: -1 })
    await expect(runtime.dispatch(bad)).rejects.toThrow(EventValidationError)
    await expect(runtime.dispatch(bad)).rejects.toThrow('payload.total')
    const plain = defineBot().createRuntime({ logger })
    expect((await plain.dispatch(bad)).ok).toBe(true)
  })

  it('does not save the state when a hook failed', async () => {
    const stateStore = createMemoryStateStore()
    const hooks = [
      bot.defineHook({ name: 'change', point: 'beforeIncoming', handler: ({ state }) => void (state.conversation.total = 99) }),
      bot.defineHook({ name: 'fail', point: 'afterIncoming', handler: () => Promise.reject(new Error('boom')) }),
    ]
    const report = await bot.createRuntime({ hooks, stateStore, logger }).dispatch(fakeTextEvent('x', { conversationId: 'c9' }))
    expect(report.ok).toBe(false)
    expect(report.state).toMatchObject([{ scope: 'conversation', after: { total: 99 }, saved: false }])
    expect(stateStore.keys()).toEqual([])
  })

  it('refuses a state value that breaks its schema, and a hook reading a scope the event lacks', async () => {
    const stateStore = createMemoryStateStore()
    const breaks = bot.defineHook({ name: 'breaks', point: 'afterIncoming', handler: ({ state }) => void (state.conversation.total = 'x' as never) })
    await expect(bot.createRuntime({ hooks: [breaks], stateStore, logger }).dispatch(fakeTextEvent('x', { conversationId: 'c2' }))).rejects.toThrow(
      'ctx.state.conversation does not match its schema',
    )
    const reads = bot.defineHook({ name: 'reads', point: 'afterIncoming', handler: ({ state }) => void state.conversation.total })
    const report = await bot.createRuntime({ hooks: [reads], logger }).dispatch(fakeTextEvent('x', { conversationId: undefined }))
    expect(report.hooks[0]?.error?.message).toContain('has no conversationId')
  })

  it('refuses a state schema that does not accept {}', () => {
    expect(() => defineBot({ state: { user: z.object({ name: z.string() }) } })).toThrow(RuntimeDefinitionError)
    expect(() => defineBot({ state: { user: z.object({ name: z.string() }) } })).toThrow('must accept {}')
  })

  it('reports a failing action in the hook that called it', async () => {
    const call = bot.defineHook({ name: 'call', point: 'afterIncoming', handler: ({ runAction }) => runAction('add', { a: 1, b: 'two' as never }).then(() => undefined) })
    const report = await bot.createRuntime({ hooks: [call], logger }).dispatch(fakeTextEvent('x'))
    expect(report.actions).toEqual([{ action: 'add', hook: 'call', input: { a: 1, b: 'two' }, status: 'error', errorCode: 'INVALID_ACTION_INPUT' }])
    expect(report.hooks[0]?.status).toBe('error')
  })
})
