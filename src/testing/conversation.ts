import type { BotEvent, EventTags, RegisteredEventType } from '../event/index.js'
import type { ActionCall, AnyAction, DispatchReport, HookReport, StateChange } from '../runtime/index.js'
import { createFakeClock, type FakeClock } from './fake-clock.js'
import type { FakeEventOverrides } from './fake-event.js'
import type { StorageWrite, TestBot } from './create-test-bot.js'

/** Options of `startConversation`. */
export interface ConversationOptions {
  /**
   * The conversation's id. Default `conv_1`.
   * @example `{ conversationId: 'conv_support' }`
   */
  conversationId?: string
  /**
   * The user's id. Default `user_1`.
   * @example `{ userId: 'user_ada' }`
   */
  userId?: string
  /**
   * The clock the events' `createdOn` is read from; it moves `stepMs` after each event. Default: a fake clock at
   * 2024-01-01T00:00:00Z.
   * @example `{ clock: createFakeClock('2025-01-01T09:00:00Z') }`
   */
  clock?: FakeClock
  /**
   * How far the clock moves after each event, in milliseconds. Default 1000.
   * @example `{ stepMs: 60_000 }`
   */
  stepMs?: number
}

/** What one event did, in a form made to be snapshotted (no durations, no random ids). */
export interface TranscriptTurn {
  /** 1 for the first event of the conversation. */
  readonly turn: number
  readonly at: string
  readonly direction: BotEvent['direction']
  readonly type: string
  readonly preview: string
  /** `name: status` of every hook considered, with `stopped`, `changed event` or the skip reason. */
  readonly hooks: readonly string[]
  /** The event's tags after the before-hooks, when it has any. */
  readonly tags?: EventTags
  readonly actions: readonly ActionCall[]
  readonly state: readonly StateChange[]
  /** `METHOD /path` of each storage write made while the event ran (ids the service made up shown as `file_<id>`). */
  readonly writes: readonly string[]
  /** Present when the hooks ran more than once (a state conflict). */
  readonly attempts?: number
  /** Error messages of failed hooks. */
  readonly errors?: readonly string[]
}

/** A conversation with a test bot: send messages and events, then read what the bot did. */
export interface Conversation {
  /**
   * Sends a text message from the user (an incoming `text` event of this conversation).
   *
   * @example
   * ```ts
   * const report = await chat.send('I want a refund')
   * ```
   */
  send(text: string): Promise<DispatchReport>
  /**
   * Sends any event of this conversation: its fields over a fresh incoming text event (ids, time, conversation
   * and user filled in by the conversation).
   *
   * @example
   * ```ts
   * await chat.sendEvent({ type: 'image', payload: { imageUrl: 'https://example.com/receipt.png' } })
   * await chat.sendEvent({ direction: 'outgoing', payload: { text: 'How can I help?' } })
   * ```
   */
  sendEvent<const T extends RegisteredEventType = 'text'>(overrides?: FakeEventOverrides<T>): Promise<DispatchReport>
  /** The dispatch reports, in order. */
  readonly reports: readonly DispatchReport[]
  /**
   * What happened, turn by turn, ready for `toMatchSnapshot()` / `toMatchInlineSnapshot()`.
   *
   * @example
   * ```ts
   * expect(chat.transcript()).toMatchSnapshot()
   * ```
   */
  transcript(): TranscriptTurn[]
}

/**
 * Starts a conversation with a test bot (`createTestBot`): each `send` builds an event of this conversation with
 * ids numbered in order (`evt_1`, `msg_1`, ...) and a time from the conversation's clock, dispatches it, and keeps
 * what the hooks and actions did, the state changes and the storage writes, so that `transcript()` is the same on
 * every run.
 *
 * @example
 * ```ts
 * const bot = await createTestBot({ bot: supportBot, hooks })
 * const chat = startConversation(bot)
 * await chat.send('hello')
 * await chat.send('my email is ada@example.com')
 * expect(chat.transcript()).toMatchSnapshot()
 * ```
 */
export function startConversation<A extends readonly AnyAction[]>(bot: TestBot<A>, options: ConversationOptions = {}): Conversation {
  const conversationId = options.conversationId ?? 'conv_1'
  const userId = options.userId ?? 'user_1'
  const clock = options.clock ?? createFakeClock()
  const stepMs = options.stepMs ?? 1000
  const reports: DispatchReport[] = []
  const turns: TranscriptTurn[] = []

  async function sendEvent(overrides: Record<string, unknown> = {}): Promise<DispatchReport> {
    const turn = turns.length + 1
    const type = typeof overrides['type'] === 'string' ? (overrides['type'] as string) : 'text'
    const event: Record<string, unknown> = {
      id: `evt_${turn}`,
      messageId: `msg_${turn}`,
      botId: bot.botId,
      conversationId,
      userId,
      createdOn: clock.now().toISOString(),
      direction: 'incoming',
      type,
      payload: { text: '' },
      preview: '',
      state: {},
      ...overrides,
    }
    if (event['preview'] === '' && type === 'text') event['preview'] = String((event['payload'] as { text?: unknown }).text ?? '')
    const firstWrite = bot.writes.length
    const report = await bot.dispatch(event)
    clock.advance(stepMs)
    reports.push(report)
    turns.push(describeTurn(turn, report, bot.writes.slice(firstWrite)))
    return report
  }

  return {
    send: (text) => sendEvent({ type: 'text', payload: { text }, preview: text }),
    sendEvent: (overrides) => sendEvent(overrides as Record<string, unknown>),
    reports,
    transcript: () => structuredClone(turns),
  }
}

/** Ids the service makes up (`file_01HX...`, 26 characters of Crockford base 32) become `file_<id>`: a transcript holds no random part. */
function maskIds(path: string): string {
  return path.replace(/\b([a-z]+)_[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1_<id>')
}

function describeHook(hook: HookReport): string {
  const notes: string[] = [hook.status]
  if (hook.skipReason) notes.push(`(${hook.skipReason})`)
  if (hook.stopped) notes.push('stopped')
  if (hook.changedEvent) notes.push('changed event')
  return `${hook.hook}: ${notes.join(' ')}`
}

function describeTurn(turn: number, report: DispatchReport, writes: readonly StorageWrite[]): TranscriptTurn {
  const { event } = report
  const errors = report.hooks.filter((h) => h.error).map((h) => h.error!.message)
  return {
    turn,
    at: event.createdOn.toISOString(),
    direction: event.direction,
    type: event.type,
    preview: event.preview,
    hooks: report.hooks.map(describeHook),
    ...(event.tags && Object.keys(event.tags).length > 0 ? { tags: event.tags } : {}),
    actions: report.actions,
    state: report.state,
    writes: writes.map((w) => `${w.method} ${maskIds(w.path)}`),
    ...(report.attempts > 1 ? { attempts: report.attempts } : {}),
    ...(errors.length > 0 ? { errors } : {}),
  }
}
