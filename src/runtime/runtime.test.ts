import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Client } from '../client/index.js'
import { EventValidationError, type BotEvent } from '../event/index.js'
import { fakeEvent, fakeTextEvent } from '../testing/fake-event.js'
import { createMemoryLogger } from '../testing/memory-logger.js'
import { createRuntime } from './create-runtime.js'
import { defineAction } from './define-action.js'
import { defineHook } from './define-hook.js'
import {
  ActionFailedError,
  ActionInputError,
  ActionNotFoundError,
  ActionOutputError,
  ActionTimeoutError,
  HookError,
  RuntimeDefinitionError,
} from './errors.js'
import type { HookPoint } from './hook-points.js'
import type { RegisteredEventType } from '../event/index.js'

const quiet = () => createMemoryLogger()

function recorder(name: string, point: HookPoint, seen: string[], extra: Partial<{ types: RegisteredEventType[]; timeoutMs: number }> = {}) {
  return defineHook({ name, point, ...extra, handler: ({ event }) => void seen.push(`${name}:${event.id}`) })
}

describe('defineHook and defineAction', () => {
  it('refuses an unknown point, an empty name, empty types and a bad timeout', () => {
    const handler = () => undefined
    expect(() => defineHook({ name: 'x', point: 'beforeEverything' as HookPoint, handler })).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_HOOK_POINT' }),
    )
    expect(() => defineHook({ name: 'x', point: 'beforeEverything' as HookPoint, handler })).toThrow(
      'point must be "beforeIncoming" | "afterIncoming" | "beforeOutgoing" | "afterOutgoing" | "afterTurn", received "beforeEverything"',
    )
    expect(() => defineHook({ name: '', point: 'afterTurn', handler })).toThrow(RuntimeDefinitionError)
    expect(() => defineHook({ name: 'x', point: 'afterTurn', types: [], handler })).toThrow('types must be a non-empty list')
    expect(() => defineHook({ name: 'x', point: 'afterTurn', timeoutMs: 0, handler })).toThrow(
      expect.objectContaining({ code: 'INVALID_TIMEOUT' }),
    )
    expect(() => defineAction({ name: 'a', input: {} as z.ZodString, output: z.string(), handler: () => 'x' })).toThrow(
      'input must be a zod schema',
    )
  })

  it('refuses two hooks or two actions with one name when the runtime is created', () => {
    const hook = recorder('same', 'afterTurn', [])
    expect(() => createRuntime({ hooks: [hook, recorder('same', 'afterIncoming', [])] })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_HOOK_NAME' }),
    )
    const action = defineAction({ name: 'a', input: z.object({}), output: z.object({}), handler: () => ({}) })
    expect(() => createRuntime({ actions: [action, action] })).toThrow(expect.objectContaining({ code: 'DUPLICATE_ACTION_NAME' }))
  })
})

describe('runtime.dispatch', () => {
  it('validates the event first', async () => {
    const runtime = createRuntime({ logger: quiet() })
    await expect(runtime.dispatch({ ...fakeEvent(), direction: 'sideways' })).rejects.toThrow(EventValidationError)
  })

  it('runs incoming points in order (before, after, afterTurn) and registration order within a point', async () => {
    const seen: string[] = []
    const hooks = [
      recorder('turn', 'afterTurn', seen),
      recorder('after-1', 'afterIncoming', seen),
      recorder('before', 'beforeIncoming', seen),
      recorder('after-2', 'afterIncoming', seen),
      recorder('outgoing', 'beforeOutgoing', seen),
    ]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeEvent({ id: 'e1' }))
    expect(seen).toEqual(['before:e1', 'after-1:e1', 'after-2:e1', 'turn:e1'])
    expect(report.hooks.map((h) => [h.hook, h.status])).toEqual([
      ['before', 'ok'],
      ['after-1', 'ok'],
      ['after-2', 'ok'],
      ['turn', 'ok'],
    ])
    expect(report.ok).toBe(true)
    expect(report.stopped).toBe(false)
  })

  it('sends outgoing events only through outgoing points (not afterTurn)', async () => {
    const seen: string[] = []
    const hooks = [
      recorder('in', 'beforeIncoming', seen),
      recorder('turn', 'afterTurn', seen),
      recorder('after-out', 'afterOutgoing', seen),
      recorder('before-out', 'beforeOutgoing', seen),
    ]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeEvent({ id: 'o1', direction: 'outgoing' }))
    expect(seen).toEqual(['before-out:o1', 'after-out:o1'])
    expect(report.hooks.map((h) => h.hook)).toEqual(['before-out', 'after-out'])
  })

  it('skips hooks whose types do not match and runs those that do', async () => {
    const seen: string[] = []
    const hooks = [recorder('images', 'afterIncoming', seen, { types: ['image'] }), recorder('texts', 'afterIncoming', seen, { types: ['text'] })]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeTextEvent('hi', { id: 't' }))
    expect(seen).toEqual(['texts:t'])
    expect(report.hooks[0]).toMatchObject({ hook: 'images', status: 'skipped', skipReason: 'type', durationMs: 0 })
  })

  it('lets a before-hook change the event, validates it again, and passes it on', async () => {
    const seenText: unknown[] = []
    const hooks = [
      defineHook({
        name: 'shout',
        point: 'beforeIncoming',
        handler: ({ event }) => ({ ...event, payload: { text: 'HI' }, preview: 'HI' }),
      }),
      defineHook({ name: 'read', point: 'afterIncoming', handler: ({ event }) => void seenText.push(event.payload['text']) }),
    ]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeTextEvent('hi'))
    expect(seenText).toEqual(['HI'])
    expect(report.event.preview).toBe('HI')
    expect(report.hooks[0]).toMatchObject({ status: 'ok', changedEvent: true })
  })

  it('refuses a changed event that is invalid or changes direction, and keeps the previous one', async () => {
    const hooks = [
      defineHook({ name: 'break', point: 'beforeIncoming', handler: ({ event }) => ({ ...event, payload: { text: 5 } }) }),
      // A direction change does not compile either; the runtime refuses it for code that escapes the types.
      defineHook({ name: 'flip', point: 'beforeIncoming', handler: ({ event }) => ({ ...event, direction: 'outgoing' }) as never }),
      defineHook({ name: 'move', point: 'beforeIncoming', handler: ({ event }) => ({ ...event, botId: 'other-bot' }) }),
    ]
    const event = fakeTextEvent('hi', { id: 'keep' })
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(event)
    expect(report.event.payload).toEqual({ text: 'hi' })
    expect(report.hooks.map((h) => h.error?.code)).toEqual(['HOOK_INVALID_EVENT', 'HOOK_INVALID_EVENT', 'HOOK_INVALID_EVENT'])
    expect(report.event.botId).toBe(event.botId)
    expect(report.hooks[0]?.error?.message).toBe(
      'Hook "break" (beforeIncoming) returned an invalid event on event keep: payload.text: expected string, received number (5)',
    )
    expect(report.hooks[1]?.error?.message).toContain('direction: expected "incoming" (a hook may not change it), received "outgoing"')
  })

  it('stops on { stop: true }: later hooks are skipped, afterTurn still runs', async () => {
    const seen: string[] = []
    const hooks = [
      defineHook({ name: 'gate', point: 'beforeIncoming', handler: () => ({ stop: true as const }) }),
      recorder('before-2', 'beforeIncoming', seen),
      recorder('after', 'afterIncoming', seen),
      recorder('turn', 'afterTurn', seen),
    ]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeEvent({ id: 's' }))
    expect(seen).toEqual(['turn:s'])
    expect(report.stopped).toBe(true)
    expect(report.stoppedBy).toBe('gate')
    expect(report.hooks.map((h) => [h.hook, h.status, h.skipReason])).toEqual([
      ['gate', 'ok', undefined],
      ['before-2', 'skipped', 'stopped'],
      ['after', 'skipped', 'stopped'],
      ['turn', 'ok', undefined],
    ])
  })

  it('isolates a failing hook: the others run, the error names hook, point and event', async () => {
    const seen: string[] = []
    const boom = new Error('boom')
    const hooks = [
      defineHook({ name: 'broken', point: 'afterIncoming', handler: () => Promise.reject(boom) }),
      recorder('fine', 'afterIncoming', seen),
    ]
    const logger = createMemoryLogger()
    const report = await createRuntime({ hooks, logger }).dispatch(fakeEvent({ id: 'evt_9' }))
    expect(seen).toEqual(['fine:evt_9'])
    expect(logger.records).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: 'Hook "broken" (afterIncoming) failed on event evt_9: boom',
        code: 'HOOK_FAILED',
        eventId: 'evt_9',
        hook: 'broken',
      }),
    ])
    expect(report.ok).toBe(false)
    const failed = report.hooks[0]!
    expect(failed.status).toBe('error')
    expect(failed.error).toBeInstanceOf(HookError)
    expect(failed.error?.message).toBe('Hook "broken" (afterIncoming) failed on event evt_9: boom')
    expect(failed.error?.cause).toBe(boom)
    expect(failed.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('with failFast, skips every hook after the first failure (afterTurn included)', async () => {
    const seen: string[] = []
    const hooks = [
      defineHook({ name: 'broken', point: 'beforeIncoming', handler: () => { throw new Error('no') } }),
      recorder('after', 'afterIncoming', seen),
      recorder('turn', 'afterTurn', seen),
    ]
    const report = await createRuntime({ hooks, failFast: true, logger: quiet() }).dispatch(fakeEvent())
    expect(seen).toEqual([])
    expect(report.hooks.map((h) => h.skipReason)).toEqual([undefined, 'failFast', 'failFast'])
  })

  it('reports a hook past its deadline as timeout, aborts its signal and runs the next one', async () => {
    let captured: AbortSignal | undefined
    const seen: string[] = []
    const hooks = [
      defineHook({
        name: 'slow',
        point: 'afterIncoming',
        timeoutMs: 20,
        handler: ({ signal }) => {
          captured = signal
          return new Promise<void>(() => undefined)
        },
      }),
      recorder('next', 'afterIncoming', seen),
    ]
    const report = await createRuntime({ hooks, logger: quiet() }).dispatch(fakeEvent({ id: 'late' }))
    expect(report.hooks[0]).toMatchObject({ status: 'timeout' })
    expect(report.hooks[0]?.error?.code).toBe('HOOK_TIMEOUT')
    expect(report.hooks[0]?.error?.message).toBe('Hook "slow" (afterIncoming) timed out on event late: no answer within 20 ms')
    expect(captured?.aborted).toBe(true)
    expect(seen).toEqual(['next:late'])
  })

  it('uses defaultTimeoutMs for hooks without their own', async () => {
    const hooks = [defineHook({ name: 'slow', point: 'afterTurn', handler: () => new Promise<void>(() => undefined) })]
    const report = await createRuntime({ hooks, defaultTimeoutMs: 15, logger: quiet() }).dispatch(fakeEvent())
    expect(report.hooks[0]?.status).toBe('timeout')
  })

  it('hands each hook a logger bound to the event id and the hook name', async () => {
    const logger = createMemoryLogger()
    const hooks = [defineHook({ name: 'talker', point: 'afterIncoming', handler: ({ logger: log }) => log.info('hello', { n: 1 }) })]
    await createRuntime({ hooks, logger }).dispatch(fakeEvent({ id: 'evt_log' }))
    expect(logger.records).toEqual([
      expect.objectContaining({ level: 'info', msg: 'hello', n: 1, eventId: 'evt_log', hook: 'talker', point: 'afterIncoming' }),
    ])
  })
})

describe('storage client injection', () => {
  it('builds a client per event from the runtime options and the event botId, only when used', async () => {
    const clients: Client[] = []
    const hooks = [
      defineHook({ name: 'no-client', point: 'beforeIncoming', handler: () => undefined }),
      defineHook({ name: 'a', point: 'afterIncoming', handler: ({ client }) => void clients.push(client) }),
      defineHook({ name: 'b', point: 'afterIncoming', handler: ({ client }) => void clients.push(client) }),
    ]
    const runtime = createRuntime({ hooks, client: { token: 'tok', apiUrl: 'http://storage.test' }, logger: quiet() })
    await runtime.dispatch(fakeEvent({ botId: 'bot_one' }))
    await runtime.dispatch(fakeEvent({ botId: 'bot_two' }))
    expect(clients.map((c) => c.config.botId)).toEqual(['bot_one', 'bot_one', 'bot_two', 'bot_two'])
    expect(clients[0]).toBe(clients[1])
    expect(clients[1]).not.toBe(clients[2])
    expect(clients[0]?.config.token).toBe('tok')
    expect(clients[0]?.config.apiUrl).toBe('http://storage.test')
  })

  it('builds no client for an action that does not use it, and one for an action that does', async () => {
    let built = 0
    const clientFactory = (event: BotEvent) => (built++, new Client({ botId: event.botId, token: 't' }))
    const pure = defineAction({ name: 'pure', input: z.object({}), output: z.object({ ok: z.boolean() }), handler: () => ({ ok: true }) })
    const storing = defineAction({
      name: 'storing',
      input: z.object({}),
      output: z.object({ botId: z.string() }),
      handler: ({ client }) => ({ botId: client.config.botId ?? '' }),
    })
    const runtime = createRuntime({ actions: [pure, storing], clientFactory, logger: quiet() })
    await runtime.runAction('pure', {}, { event: fakeEvent() })
    expect(built).toBe(0)
    expect(await runtime.runAction('storing', {}, { event: fakeEvent({ botId: 'bot_act' }) })).toEqual({ botId: 'bot_act' })
    expect(built).toBe(1)
  })

  it('uses clientFactory when given, and a ready Client as is', async () => {
    const made: string[] = []
    const fromFactory: Client[] = []
    const hooks = [defineHook({ name: 'use', point: 'afterIncoming', handler: ({ client }) => void fromFactory.push(client) })]
    const runtime = createRuntime({
      hooks,
      clientFactory: (event) => {
        made.push(event.id)
        return new Client({ botId: `factory-${event.botId}`, token: 't' })
      },
      logger: quiet(),
    })
    await runtime.dispatch(fakeEvent({ id: 'x', botId: 'b' }))
    expect(made).toEqual(['x'])
    expect(fromFactory[0]?.config.botId).toBe('factory-b')

    const ready = new Client({ botId: 'fixed', token: 't' })
    const seen: Client[] = []
    const fixed = createRuntime({
      hooks: [defineHook({ name: 'use', point: 'afterIncoming', handler: ({ client }) => void seen.push(client) })],
      client: ready,
      logger: quiet(),
    })
    await fixed.dispatch(fakeEvent())
    expect(seen[0]).toBe(ready)
  })
})

describe('runtime.runAction', () => {
  const calls: unknown[] = []
  const add = defineAction({
    name: 'add',
    input: z.object({ a: z.number(), b: z.number() }),
    output: z.object({ sum: z.number() }),
    handler: ({ input, event, logger }) => {
      calls.push(input)
      logger.info('adding')
      return { sum: input.a + input.b, eventId: event.id }
    },
  })
  const liar = defineAction({ name: 'liar', input: z.object({}), output: z.object({ sum: z.number() }), handler: () => ({ sum: 'two' as unknown as number }) })
  const broken = defineAction({ name: 'broken', input: z.object({}), output: z.object({}), handler: () => Promise.reject(new Error('db down')) })
  let slowSignal: AbortSignal | undefined
  const slow = defineAction({
    name: 'slow',
    input: z.object({}),
    output: z.object({}),
    timeoutMs: 20,
    handler: ({ signal }) => {
      slowSignal = signal
      return new Promise<{}>(() => undefined)
    },
  })
  const logger = createMemoryLogger()
  const runtime = createRuntime({ actions: [add, liar, broken, slow], logger })
  const event = fakeEvent({ id: 'evt_a' })

  it('validates input and output and returns the parsed output', async () => {
    const result = await runtime.runAction('add', { a: 1, b: 2 }, { event })
    expect(result).toEqual({ sum: 3 })
    expect(logger.records.at(-1)).toMatchObject({ msg: 'adding', eventId: 'evt_a', action: 'add' })
  })

  it('refuses invalid input before the handler runs', async () => {
    calls.length = 0
    const error = await runtime.runAction('add', { a: 1, b: '2' } as never, { event }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionInputError)
    expect((error as ActionInputError).code).toBe('INVALID_ACTION_INPUT')
    expect((error as ActionInputError).message).toBe('Invalid input for action "add": b: expected number, received "2"')
    expect(calls).toEqual([])
  })

  it('refuses invalid output after the handler', async () => {
    const error = await runtime.runAction('liar', {}, { event }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionOutputError)
    expect((error as ActionOutputError).issues[0]?.message).toBe('sum: expected number, received "two"')
  })

  it('wraps a thrown error and keeps it as cause', async () => {
    const error = await runtime.runAction('broken', {}, { event }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionFailedError)
    expect((error as Error).message).toBe('Action "broken" failed on event evt_a: db down')
    expect(((error as Error).cause as Error).message).toBe('db down')
  })

  it('times out, aborting the signal', async () => {
    const error = await runtime.runAction('slow', {}, { event }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionTimeoutError)
    expect((error as ActionTimeoutError).code).toBe('ACTION_TIMEOUT')
    expect(slowSignal?.aborted).toBe(true)
  })

  it('refuses an unknown action and an invalid event', async () => {
    await expect(runtime.runAction('nope' as 'add', { a: 1, b: 1 }, { event })).rejects.toThrow(ActionNotFoundError)
    await expect(runtime.runAction('nope' as 'add', { a: 1, b: 1 }, { event })).rejects.toThrow(
      'No action named "nope"; defined actions: "add", "liar", "broken", "slow"',
    )
    const bad = { ...event, id: 1 } as unknown as BotEvent
    await expect(runtime.runAction('add', { a: 1, b: 1 }, { event: bad })).rejects.toThrow(EventValidationError)
  })
})
