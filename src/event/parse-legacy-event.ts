import type { BotEvent } from './event-schema.js'
import { getPreview } from './preview.js'
import { safeParseEvent } from './parse-event.js'

/** Options of `parseLegacyEvent`. */
export interface LegacyParseOptions {
  /**
   * Bot id for events that carry none (Botpress v12 events without `botId`, Cloud API events).
   * @example `{ botId: 'support-bot' }`
   */
  botId?: string
  /**
   * Direction of events that carry none (Cloud API webhook events). Default `incoming`.
   * @example `{ direction: 'outgoing' }`
   */
  direction?: 'incoming' | 'outgoing'
}

/** What `parseLegacyEvent` returns: the event and, in words, every change made to get it. */
export interface LegacyParseResult {
  readonly event: BotEvent
  /** What was mapped, one line each (`createdAt → createdOn`, `threadId → conversationId`, ...); empty for a current event. */
  readonly mapped: readonly string[]
}

const renames: ReadonlyArray<readonly [from: string, to: string, why: string]> = [
  ['createdAt', 'createdOn', 'Cloud API'],
  ['threadId', 'conversationId', 'Botpress v12'],
  ['target', 'userId', 'Botpress v12'],
  ['channel', 'integration', 'Botpress v12'],
]

/**
 * The lenient parse for payloads of older or other senders: unwraps a `{ event: {...} }` body, maps a Botpress v12
 * `IO.Event` (`target`, `threadId`, `channel`) and a Cloud API event (`createdAt`, no `direction`), fills a missing
 * `preview` (from the payload), `state` (`{}`), `botId` and `direction` (from the options), then validates like
 * `parseEvent` (throws `EventValidationError` with hints when still invalid). `mapped` says what it changed, so a
 * caller can log it and fix the sender.
 *
 * @example
 * ```ts
 * const { event, mapped } = parseLegacyEvent(JSON.parse(body), { botId: 'support-bot' })
 * if (mapped.length > 0) logger.warn('legacy event mapped', { mapped })
 * ```
 */
export function parseLegacyEvent(input: unknown, options: LegacyParseOptions = {}): LegacyParseResult {
  const mapped: string[] = []
  let body = input
  if (isRecord(body) && body['type'] === undefined && isRecord(body['event'])) {
    body = body['event']
    mapped.push('body.event → the event (the body wrapped it)')
  }
  if (!isRecord(body)) return { event: fail(input), mapped }
  const event: Record<string, unknown> = { ...body }
  for (const [from, to, why] of renames) {
    if (event[from] !== undefined && event[to] === undefined) {
      event[to] = event[from]
      delete event[from]
      mapped.push(`${from} → ${to} (${why})`)
    }
  }
  if (typeof event['createdOn'] === 'number') {
    event['createdOn'] = new Date(event['createdOn'])
    mapped.push('createdOn: epoch milliseconds → date')
  }
  if (event['botId'] === undefined && options.botId !== undefined) {
    event['botId'] = options.botId
    mapped.push(`botId: missing → ${JSON.stringify(options.botId)} (from the options)`)
  }
  if (event['direction'] === undefined) {
    event['direction'] = options.direction ?? 'incoming'
    mapped.push(`direction: missing → ${JSON.stringify(event['direction'])}`)
  }
  if (event['state'] === undefined || event['state'] === null) {
    event['state'] = {}
    mapped.push('state: missing → {}')
  }
  if (event['payload'] === undefined) {
    event['payload'] = {}
    mapped.push('payload: missing → {}')
  }
  const needsPreview = typeof event['preview'] !== 'string'
  if (needsPreview) event['preview'] = ''
  const result = safeParseEvent(event)
  if (!result.success) throw result.error
  if (!needsPreview) return { event: result.event, mapped }
  mapped.push('preview: missing → derived from the payload')
  return { event: { ...result.event, preview: getPreview(result.event) }, mapped }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function fail(input: unknown): never {
  const result = safeParseEvent(input)
  if (!result.success) throw result.error
  throw new TypeError('unreachable: a non-object passed validation')
}
