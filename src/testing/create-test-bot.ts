import { Client } from '../client/index.js'
import { isStorageEventType } from '../api/webhooks/storage-events.js'
import { IN_PROCESS_EVENTS_URL, storageEventBridge, type ReceivedStorageEvent } from './storage-event-delivery.js'
import type { BotEvent } from '../event/index.js'
import {
  createMemoryStateStore,
  createRuntime,
  type Bot,
  type BotTypes,
  type MemoryStateStore,
  type StateStore,
  type ActionInput,
  type ActionOutput,
  type AnyAction,
  type AnyHook,
  type DispatchReport,
  type LogRecord,
} from '../runtime/index.js'
import { loadInProcessService, type InProcessService } from './in-process-service.js'
import { isMadeUpBotId } from './fake-bot-ids.js'
import { createMemoryLogger } from './memory-logger.js'
import { systemClock, type Clock } from '../clock/index.js'

/** The bot id of a test bot when none is given. Pass it to fakes (`fakeTextEvent('hi', { botId: TEST_BOT_ID })`). */
export const TEST_BOT_ID = 'test-bot'

// The in-process client never opens a socket; this origin only shapes the URLs the service returns.
const IN_PROCESS_ORIGIN = 'http://botshelf.test'

/** Options of `createTestBot`. */
export interface TestBotOptions<A extends readonly AnyAction[]> {
  /**
   * A bot made with `defineBot`: its event types, actions and state come with it (then leave `actions` out).
   * @example `bot: supportBot`
   */
  bot?: Pick<Bot<BotTypes & { actions: A }>, 'actions' | 'createRuntime'>
  /**
   * Where state is kept. Default: a memory store, readable as `testBot.stateStore`.
   * @example `stateStore: createTableStateStore()`
   */
  stateStore?: StateStore
  /**
   * Hooks to dispatch events through, in order.
   * @example `hooks: [tagConversation]`
   */
  hooks?: readonly AnyHook[]
  /**
   * Actions callable with `bot.runAction(name, input)`.
   * @example `actions: [saveLead]`
   */
  actions?: A
  /**
   * Id of the bot that `bot.client` talks to and that `bot.fakeEvent`-style helpers should use. Default `'test-bot'`.
   * @example `botId: 'support-bot'`
   */
  botId?: string
  /**
   * Deadline of hooks and actions without their own. Default: the runtime's (10 s).
   * @example `defaultTimeoutMs: 500`
   */
  defaultTimeoutMs?: number
  /**
   * Stop at the first failing hook. Default `false`.
   * @example `failFast: true`
   */
  failFast?: boolean
  /**
   * The service's clock (file expiry, URL expiry, timestamps). Default: the real clock.
   * @example `now: clock.now`
   */
  now?: Clock
  /**
   * Which of the in-process service's storage events of the test bot reach the hooks (delivered signed, after
   * the commit, without HTTP): `'all'`, a list of types, or `[]` for none. Default: the storage event types the
   * hooks name in their `types`, so hooks written before storage events see none they did not ask for.
   * @example `storageEvents: ['file.indexed']`
   */
  storageEvents?: 'all' | readonly string[]
}

/** One write request a test bot's client sent: the method and the decoded path, for the bot it was made for. */
export interface StorageWrite {
  readonly botId: string
  readonly method: string
  readonly path: string
}

/** A bot under test: its runtime wired to a real in-process storage service with its own empty store. */
export interface TestBot<A extends readonly AnyAction[] = readonly AnyAction[]> {
  /**
   * Validates the event and runs the hooks; the hooks' `client` is bound to the event's bot. A fake made
   * without `botId` (`fakeTextEvent('hi')`) is the test bot's: its `botId` becomes `bot.botId`, so the hooks and
   * `bot.client` see the same store. An event naming another bot (`{ botId: 'other-bot' }`) runs as that bot.
   */
  dispatch(rawEvent: unknown): Promise<DispatchReport>
  /**
   * Runs an action. Without `options.event`, a minimal incoming event of the test bot is used; a fake made
   * without `botId` is the test bot's, as in `dispatch`.
   */
  runAction<N extends A[number]['name']>(
    name: N,
    input: ActionInput<Extract<A[number], { name: N }>>,
    options?: { event?: unknown },
  ): Promise<ActionOutput<Extract<A[number], { name: N }>>>
  /** A storage client for the test bot (`botId`), to arrange data before and check it after. */
  readonly client: Client
  /** A storage client for any other bot id (the bot is created on first use). */
  clientFor(botId: string): Client
  /** The id of the test bot. */
  readonly botId: string
  /** Every line logged by hooks and actions, oldest first, with their bindings (event id, hook name). */
  readonly logs: LogRecord[]
  /** Every write the bot's clients sent to the storage service, oldest first (`POST /v1/tables/leadsTable/rows`). */
  readonly writes: StorageWrite[]
  /** The state store (a memory store unless `stateStore` was given). */
  readonly stateStore: StateStore | MemoryStateStore
  /** The in-process service, for tests that want to send raw requests (`bot.app.fetch(request)`). */
  readonly app: InProcessService
  /**
   * Resolves once the test bot's hooks have handled the next storage event of a type (`file.indexed`, ...): the
   * in-process service delivers the test bot's events to its hooks, signed and after the commit, without HTTP.
   */
  waitForEvent(type: string): Promise<ReceivedStorageEvent>
  /** Stops the service and removes its temporary store. */
  close(): Promise<void>
}

/**
 * Runs hooks and actions against a real in-process storage service (SQLite in memory, content in a temp
 * folder): no network, no mocks. Each test bot has its own empty store. Fakes made without `botId` are
 * dispatched as the test bot's, so what a hook writes is what `bot.client` reads.
 *
 * @example
 * ```ts
 * const bot = await createTestBot({ hooks: [tagConversation] })
 * const report = await bot.dispatch(fakeTextEvent('hello'))
 * expect(report.hooks[0]?.status).toBe('ok')
 * const { files } = await bot.client.listFiles({})
 * await bot.close()
 * ```
 */
export async function createTestBot<const A extends readonly AnyAction[] = readonly AnyAction[]>(
  options: TestBotOptions<A> = {},
): Promise<TestBot<A>> {
  const botId = options.botId ?? TEST_BOT_ID
  const service = await loadInProcessService()
  const events = storageEventBridge((event) => runtime.dispatch(event))
  const app = await service.createApp({
    memory: true,
    publicUrl: IN_PROCESS_ORIGIN,
    logger: service.silentLogger,
    // A test of a bot must not depend on how fast it runs: with a fake clock that never moves, the buckets of
    // the service's rate limit would never refill (docs/decisions/0702-rate-limits-and-timeouts.md).
    rateLimit: false,
    ...(options.now ? { now: options.now } : {}),
    // Storage events reach the hooks through this bridge, never a socket.
    webhooks: { fetch: (url, init) => events.fetch(url, init), pollMs: 20 },
  })
  const clients = new Map<string, Client>()
  const writes: StorageWrite[] = []
  const clientFor = (id: string): Client => {
    const existing = clients.get(id)
    if (existing) return existing
    // The store is async and clientFor is not: the bot and its token are made on first use, and each request
    // carries the token once it exists (the client's own token is a placeholder that never leaves the process).
    const token = (async () => {
      if (!(await app.admin.listBots()).some((bot) => bot.id === id)) await app.admin.createBot({ id, name: id })
      return (await app.admin.createToken({ botId: id, role: 'bot', label: 'createTestBot' })).token
    })()
    token.catch(() => undefined)
    const client = new Client({
      token: 'bs_pending',
      botId: id,
      apiUrl: IN_PROCESS_ORIGIN,
      fetch: async (request) => {
        if (request.method !== 'GET' && request.method !== 'HEAD' && !request.url.endsWith('/rows/find')) {
          writes.push({ botId: id, method: request.method, path: decodeURIComponent(new URL(request.url).pathname) })
        }
        const headers = new Headers(request.headers)
        headers.set('authorization', `Bearer ${await token}`)
        return app.fetch(new Request(request, { headers, duplex: 'half' } as RequestInit))
      },
    })
    clients.set(id, client)
    return client
  }

  const logger = createMemoryLogger(options.now ? { now: options.now } : {})
  const stateStore = options.stateStore ?? createMemoryStateStore()
  const runtimeOptions = {
    hooks: options.hooks ?? [],
    clientFactory: (event: BotEvent) => clientFor(event.botId),
    logger,
    stateStore,
    ...(options.now ? { now: options.now } : {}),
    ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
    ...(options.failFast !== undefined ? { failFast: options.failFast } : {}),
  }
  const runtime = options.bot
    ? options.bot.createRuntime(runtimeOptions)
    : createRuntime<A>({ ...runtimeOptions, ...(options.actions ? { actions: options.actions } : {}) })
  const client = clientFor(botId)
  const wanted = options.storageEvents ?? [...new Set((options.hooks ?? []).flatMap((hook) => (hook.types ?? []).filter(isStorageEventType)))]
  if (wanted === 'all' || wanted.length > 0) await subscribeToStorageEvents(app, botId, clientFor, wanted === 'all' ? [] : wanted)
  let closed = false

  const defaultActionEvent = (): Record<string, unknown> => ({
    id: 'evt_test_action',
    botId,
    createdOn: (options.now ?? systemClock)().toISOString(),
    direction: 'incoming',
    type: 'text',
    payload: { text: '' },
    preview: '',
    state: {},
  })

  // The fakes' made-up bot id stands for "the bot under test"; a bot id the test chose is kept.
  const adopt = (rawEvent: unknown): unknown => {
    if (typeof rawEvent !== 'object' || rawEvent === null || Array.isArray(rawEvent)) return rawEvent
    const eventBotId = (rawEvent as { botId?: unknown }).botId
    return typeof eventBotId === 'string' && isMadeUpBotId(eventBotId) ? { ...rawEvent, botId } : rawEvent
  }

  return {
    dispatch: (rawEvent) => runtime.dispatch(adopt(rawEvent)),
    runAction: (name, input, actionOptions = {}) => runtime.runAction(name, input, { event: adopt(actionOptions.event ?? defaultActionEvent()) }),
    client,
    clientFor,
    botId,
    logs: logger.records,
    writes,
    stateStore,
    app,
    waitForEvent: (type) => events.waitForEvent(type),
    async close() {
      if (closed) return
      closed = true
      await app.close()
    },
  }
}

/** Subscribes the test bot to storage events (`types` empty: every one), delivered to {@link IN_PROCESS_EVENTS_URL} (the bridge). */
async function subscribeToStorageEvents(app: InProcessService, botId: string, clientFor: (id: string) => Client, types: readonly string[]): Promise<void> {
  // The first request makes the bot (clientFor creates it on first use); then a token of its own subscribes.
  await clientFor(botId).listFiles({})
  const token = (await app.admin.createToken({ botId, role: 'bot', label: 'createTestBot events' })).token
  const response = await app.fetch(
    new Request('http://botshelf.test/v1/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' },
      body: JSON.stringify({ url: IN_PROCESS_EVENTS_URL, types, description: 'createTestBot' }),
    }),
  )
  if (response.status !== 200) throw new Error(`createTestBot could not subscribe to storage events: ${response.status} ${await response.text()}`)
}
