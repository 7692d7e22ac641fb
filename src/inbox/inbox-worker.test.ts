import { describe, expect, it } from 'vitest'
import { createRuntime, defineHook } from '../runtime/index.js'
import { fakeTextEvent } from '../testing/fake-event.js'
import { createMemoryLogger } from '../testing/memory-logger.js'
import { createMemoryInbox } from './memory-inbox.js'
import { createInboxWorker } from './inbox-worker.js'
import { InboxError } from './errors.js'
import { orderingKey } from './ordering-key.js'

function entryOf(event: ReturnType<typeof fakeTextEvent>, id = `msg_${event.id}`) {
  return { id, key: orderingKey(event), body: JSON.stringify(event) }
}

describe('createInboxWorker', () => {
  it('processes an accepted event once and marks it done', async () => {
    const seen: string[] = []
    const runtime = createRuntime({ hooks: [defineHook({ name: 'rec', point: 'afterIncoming', handler: ({ event }) => void seen.push(event.id) })], logger: createMemoryLogger() })
    const inbox = createMemoryInbox()
    const worker = createInboxWorker({ runtime, inbox, logger: createMemoryLogger() })
    await worker.start()
    const event = fakeTextEvent('hi', { id: 'evt_1' })
    expect((await worker.accept(entryOf(event))).added).toBe(true)
    expect((await worker.accept(entryOf(event))).added).toBe(false)
    await worker.whenIdle()
    expect(seen).toEqual(['evt_1'])
    expect(await inbox.get('msg_evt_1')).toMatchObject({ status: 'done', attempts: 1 })
  })

  it('retries a failing event on the schedule, then puts it in the dead-letter list, and replays it', async () => {
    let failing = true
    let runs = 0
    const runtime = createRuntime({
      hooks: [
        defineHook({
          name: 'flaky',
          point: 'afterIncoming',
          handler: () => {
            runs++
            if (failing) throw new Error('downstream is down')
          },
        }),
      ],
      logger: createMemoryLogger(),
    })
    const logger = createMemoryLogger()
    const worker = createInboxWorker({ runtime, inbox: createMemoryInbox(), retryDelaysMs: [1, 1], logger })
    await worker.start()
    await worker.accept(entryOf(fakeTextEvent('x', { id: 'evt_dead' })))
    await worker.whenIdle()
    expect(runs).toBe(3)
    const dead = await worker.deadLetters()
    expect(dead).toHaveLength(1)
    expect(dead[0]).toMatchObject({ id: 'msg_evt_dead', status: 'dead', attempts: 3 })
    expect(dead[0]!.lastError).toContain('downstream is down')
    expect(logger.records.map((r) => r.msg)).toEqual(['event processing failed; retrying', 'event processing failed; retrying', 'event given up after its last run: in the dead-letter list'])

    failing = false
    await worker.replay('msg_evt_dead')
    await worker.whenIdle()
    expect(runs).toBe(4)
    expect(await worker.deadLetters()).toEqual([])
    expect(await worker.inbox.get('msg_evt_dead')).toMatchObject({ status: 'done', attempts: 1 })
    await expect(worker.replay('msg_evt_dead')).rejects.toThrow(InboxError)
    await expect(worker.replay('msg_nope')).rejects.toThrow('Dead letter "msg_nope" not found')
  })

  it('gives up at once on an entry whose event does not validate', async () => {
    const worker = createInboxWorker({ runtime: createRuntime({ logger: createMemoryLogger() }), inbox: createMemoryInbox(), logger: createMemoryLogger() })
    await worker.start()
    await worker.accept({ id: 'msg_bad', key: 'b/c', body: JSON.stringify({ id: 'x' }) })
    await worker.whenIdle()
    expect(await worker.deadLetters()).toMatchObject([{ id: 'msg_bad', attempts: 1 }])
  })

  it('processes what an earlier process left pending when started', async () => {
    const inbox = createMemoryInbox()
    const event = fakeTextEvent('left over', { id: 'evt_left' })
    await inbox.add({ ...entryOf(event), receivedAt: Date.now() })
    const seen: string[] = []
    const runtime = createRuntime({ hooks: [defineHook({ name: 'rec', point: 'afterIncoming', handler: ({ event: e }) => void seen.push(e.id) })], logger: createMemoryLogger() })
    const worker = createInboxWorker({ runtime, inbox, logger: createMemoryLogger() })
    await worker.start()
    await worker.whenIdle()
    expect(seen).toEqual(['evt_left'])
  })

  it('keeps the order of each conversation under 50 concurrent conversations, and runs at most `concurrency` at once', async () => {
    const order = new Map<string, number[]>()
    let active = 0
    let most = 0
    const runtime = createRuntime({
      hooks: [
        defineHook({
          name: 'rec',
          point: 'afterIncoming',
          handler: async ({ event }) => {
            active++
            most = Math.max(most, active)
            // Uneven work, so that conversations overtake one another.
            for (let i = 0; i < (Number(event.id.split('_')[2]) * 7) % 5; i++) await Promise.resolve()
            const [conversation, n] = [event.conversationId!, Number(event.id.split('_')[2])]
            order.set(conversation, [...(order.get(conversation) ?? []), n])
            active--
            if (n === 2 && conversation.endsWith('7')) throw new Error('one failure to retry')
          },
        }),
      ],
      logger: createMemoryLogger(),
    })
    const worker = createInboxWorker({ runtime, inbox: createMemoryInbox(), concurrency: 6, retryDelaysMs: [1], logger: createMemoryLogger() })
    await worker.start()
    const accepts: Array<Promise<unknown>> = []
    for (let n = 0; n < 5; n++) {
      for (let c = 0; c < 50; c++) accepts.push(worker.accept(entryOf(fakeTextEvent('m', { id: `evt_${c}_${n}`, conversationId: `conv_${c}` }))))
    }
    await Promise.all(accepts)
    await worker.whenIdle()
    expect(order.size).toBe(50)
    for (const [conversation, seen] of order) {
      const expected = conversation.endsWith('7') ? [0, 1, 2, 2, 3, 4] : [0, 1, 2, 3, 4]
      expect(seen, conversation).toEqual(expected)
    }
    expect(most).toBeLessThanOrEqual(6)
    expect(most).toBeGreaterThan(1)
  })

  it('refuses bad options with a message naming the field', () => {
    const runtime = createRuntime({ logger: createMemoryLogger() })
    expect(() => createInboxWorker({ runtime, inbox: createMemoryInbox(), concurrency: 0 })).toThrow('concurrency: expected a positive integer, received 0')
    expect(() => createInboxWorker({ runtime, inbox: createMemoryInbox(), retryDelaysMs: [-1] })).toThrow('retryDelaysMs: expected a list of waits')
    expect(() => createInboxWorker({ runtime, inbox: undefined as never })).toThrow('inbox: expected an Inbox')
  })
})
