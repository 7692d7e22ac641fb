import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Client } from '../../src/client/index.js'
import {
  createMemoryStateStore,
  createTableStateStore,
  defineBot,
  DEFAULT_STATE_TABLE,
  StateConflictError,
  type StateStore,
} from '../../src/runtime/index.js'
import { createFakeClock, createMemoryLogger, fakeTextEvent } from '../../src/testing/index.js'
import { startTestService, type TestService } from '../helpers/service.js'

// State kept through the storage client in a real botshelf table (this run's engine), beside the memory store that
// must behave the same: versions, a lost update detected and the event run again, expiry.
let service: TestService
let client: Client
beforeAll(async () => {
  service = await startTestService({ listen: true })
  client = new Client({ token: service.tokens.bot, botId: service.botId, apiUrl: service.url })
})
afterAll(async () => {
  await service.close()
})

const bot = defineBot({
  state: {
    conversation: z.object({ turns: z.number().default(0), said: z.array(z.string()).default([]) }),
    user: z.object({ seen: z.number().default(0) }),
  },
})

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

const stores: Array<[string, (table: string) => StateStore]> = [
  ['a botshelf table through the client', (table) => createTableStateStore({ table })],
  ['memory', () => createMemoryStateStore()],
]

describe.each(stores)('state in %s', (name, makeStore) => {
  let tableCount = 0
  const freshTable = () => `state${name === 'memory' ? 'Mem' : 'Tbl'}${++tableCount}Table`

  it('loads before the hooks and saves after them, one version per event', async () => {
    const stateStore = makeStore(freshTable())
    const count = bot.defineHook({
      name: 'count',
      point: 'afterIncoming',
      types: ['text'],
      handler: ({ event, state }) => {
        state.conversation.turns += 1
        state.conversation.said.push(event.payload.text)
        state.user.seen += 1
      },
    })
    const runtime = bot.createRuntime({ hooks: [count], stateStore, client, logger: createMemoryLogger() })
    for (const text of ['hi', 'how are you', 'bye']) {
      const report = await runtime.dispatch(fakeTextEvent(text, { botId: service.botId, conversationId: 'conv_1', userId: 'user_1' }))
      expect(report.ok).toBe(true)
    }
    const last = await runtime.dispatch(fakeTextEvent('again', { botId: service.botId, conversationId: 'conv_1', userId: 'user_1' }))
    expect(last.state).toEqual([
      {
        scope: 'conversation',
        key: `conversation:${service.botId}:conv_1`,
        before: { turns: 3, said: ['hi', 'how are you', 'bye'] },
        after: { turns: 4, said: ['hi', 'how are you', 'bye', 'again'] },
        saved: true,
      },
      { scope: 'user', key: `user:${service.botId}:user_1`, before: { seen: 3 }, after: { seen: 4 }, saved: true },
    ])
    // Another conversation starts from the schema's empty value.
    const other = await runtime.dispatch(fakeTextEvent('new', { botId: service.botId, conversationId: 'conv_2', userId: 'user_1' }))
    expect(other.state[0]).toMatchObject({ before: { turns: 0, said: [] }, after: { turns: 1, said: ['new'] } })
  })

  it('detects a lost update: two events that loaded the same version, one saves, the other runs again', async () => {
    const stateStore = makeStore(freshTable())
    // Both events load version 0 before either saves: the first hook call of each waits for the other's.
    const bothLoaded = deferred()
    let firstCalls = 0
    const increment = bot.defineHook({
      name: 'increment',
      point: 'afterIncoming',
      handler: async ({ state }) => {
        const turns = state.conversation.turns
        if (firstCalls < 2) {
          firstCalls += 1
          if (firstCalls === 2) bothLoaded.resolve()
          await bothLoaded.promise
        }
        state.conversation.turns = turns + 1
      },
    })
    // Two runtimes stand for two processes sharing the store.
    const a = bot.createRuntime({ hooks: [increment], stateStore, client, logger: createMemoryLogger() })
    const b = bot.createRuntime({ hooks: [increment], stateStore, client, logger: createMemoryLogger() })
    const event = (text: string) => fakeTextEvent(text, { botId: service.botId, conversationId: 'conv_race' })
    const [first, second] = await Promise.all([a.dispatch(event('one')), b.dispatch(event('two'))])
    expect([first.attempts, second.attempts].sort()).toEqual([1, 2])
    const third = await a.dispatch(event('three'))
    expect(third.state[0]).toMatchObject({ before: { turns: 2 }, after: { turns: 3 } })
  })

  it('gives up with StateConflictError once the retries are spent', async () => {
    const stateStore = makeStore(freshTable())
    const context = { client: () => client, now: () => new Date() }
    const key = `conversation:${service.botId}:conv_busy`
    // Every run, another writer gets there first.
    const busy = bot.defineHook({
      name: 'busy',
      point: 'afterIncoming',
      handler: async ({ state }) => {
        const current = (await stateStore.load([key], context)).get(key)
        await stateStore.save([{ key, value: { turns: 100, said: [] }, expectedVersion: current?.version ?? 0, ref: current?.ref }], context)
        state.conversation.turns += 1
      },
    })
    const runtime = bot.createRuntime({ hooks: [busy], stateStore, client, stateRetries: 1, logger: createMemoryLogger() })
    await expect(runtime.dispatch(fakeTextEvent('x', { botId: service.botId, conversationId: 'conv_busy' }))).rejects.toBeInstanceOf(StateConflictError)
  })

  it('forgets a value after its expiry, on the runtime clock', async () => {
    const clock = createFakeClock()
    const stateStore = makeStore(freshTable())
    const count = bot.defineHook({ name: 'count', point: 'afterIncoming', handler: ({ state }) => void (state.conversation.turns += 1) })
    const runtime = bot.createRuntime({
      hooks: [count],
      stateStore,
      client,
      now: clock.now,
      stateExpiresInMs: { conversation: 60_000 },
      logger: createMemoryLogger(),
    })
    const event = () => fakeTextEvent('x', { botId: service.botId, conversationId: 'conv_ttl' })
    await runtime.dispatch(event())
    clock.advance(30_000)
    expect((await runtime.dispatch(event())).state[0]).toMatchObject({ before: { turns: 1 }, after: { turns: 2 } })
    clock.advance(60_001)
    expect((await runtime.dispatch(event())).state[0]).toMatchObject({ before: { turns: 0 }, after: { turns: 1 } })
  })
})

describe('the table state store on the wire', () => {
  it('keeps one row per key (old versions deleted) in its table, with the key column that refuses a second writer', async () => {
    const runtime = bot.createRuntime({
      hooks: [bot.defineHook({ name: 'c', point: 'afterIncoming', handler: ({ state }) => void (state.conversation.turns += 1) })],
      stateStore: createTableStateStore(),
      client,
      logger: createMemoryLogger(),
    })
    for (let i = 0; i < 3; i++) await runtime.dispatch(fakeTextEvent('x', { botId: service.botId, conversationId: 'conv_rows' }))
    const { table } = await client.getTable({ table: DEFAULT_STATE_TABLE })
    expect(table.keyColumn).toBe('slot')
    const { rows } = await client.findTableRows({ table: DEFAULT_STATE_TABLE, filter: { stateKey: `conversation:${service.botId}:conv_rows` } })
    expect(rows.map((row) => [row['version'], row['value']])).toEqual([[3, { turns: 3, said: [] }]])
  })
})
