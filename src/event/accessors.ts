import { eventFieldNames, type BotEvent, type EventTags, type TagScope, type Trigger } from './event-schema.js'
import { isEventOfType } from './event-type-registry.js'

/**
 * True for an event sent by the user to the bot.
 *
 * @example
 * ```ts
 * if (isIncoming(event)) await reply(event)
 * ```
 */
export function isIncoming(event: BotEvent): event is BotEvent & { direction: 'incoming' } {
  return event.direction === 'incoming'
}

/**
 * True for an event the bot sends to the user.
 *
 * @example
 * ```ts
 * if (isOutgoing(event)) audit(event)
 * ```
 */
export function isOutgoing(event: BotEvent): event is BotEvent & { direction: 'outgoing' } {
  return event.direction === 'outgoing'
}

const scopes: ReadonlySet<string> = new Set<TagScope>(['conversation', 'message', 'user'])

function checkScope(scope: string): asserts scope is TagScope {
  if (!scopes.has(scope)) {
    throw new RangeError(`Tag scope must be "conversation" | "message" | "user", received ${JSON.stringify(scope)}`)
  }
}

/**
 * The tags of one scope (`conversation`, `message` or `user`), or an empty object when the event has none.
 * The returned object is frozen: copy it to change tags.
 *
 * @example
 * ```ts
 * getTags(event, 'conversation') // { topic: 'billing' }
 * ```
 */
export function getTags(event: BotEvent, scope: TagScope): Readonly<Record<string, string>> {
  checkScope(scope)
  return Object.freeze({ ...(event.tags?.[scope] ?? {}) })
}

/**
 * One tag value, or `undefined` when the event, the scope or the key has none.
 *
 * @example
 * ```ts
 * getTag(event, 'user', 'plan') // 'pro'
 * ```
 */
export function getTag(event: BotEvent, scope: TagScope, key: string): string | undefined {
  checkScope(scope)
  const tags: EventTags[TagScope] = event.tags?.[scope]
  return tags !== undefined && Object.hasOwn(tags, key) ? tags[key] : undefined
}

/**
 * The trigger that sent the event, or `undefined`.
 *
 * @example
 * ```ts
 * const trigger = getTrigger(event)
 * if (trigger) console.log(trigger.flowId, trigger.nodeId)
 * ```
 */
export function getTrigger(event: BotEvent): Trigger | undefined {
  return event.trigger
}

/**
 * The conversation of the event, or `undefined`.
 *
 * @example
 * ```ts
 * const conversationId = getConversationId(event) ?? 'no-conversation'
 * ```
 */
export function getConversationId(event: BotEvent): string | undefined {
  return event.conversationId
}

/**
 * The user of the event, or `undefined`.
 *
 * @example
 * ```ts
 * const userId = getUserId(event)
 * ```
 */
export function getUserId(event: BotEvent): string | undefined {
  return event.userId
}

/**
 * Shortcut for `isEventOfType(event, 'text')`: narrows `event.payload` to `{ text: string }`.
 *
 * @example
 * ```ts
 * if (isTextEvent(event)) console.log(event.payload.text)
 * ```
 */
export function isTextEvent<E extends BotEvent>(event: E): event is E & { type: 'text'; payload: { text: string } } {
  return isEventOfType(event, 'text')
}

/**
 * The words of a message: the text of a `text`, `choice` or `dropdown` event, the source of a `markdown`
 * event, otherwise `undefined`.
 *
 * @example
 * ```ts
 * const words = getText(event)?.toLowerCase()
 * ```
 */
export function getText(event: BotEvent): string | undefined {
  if (isEventOfType(event, 'text')) return event.payload.text
  if (isEventOfType(event, 'markdown')) return event.payload.markdown
  if (isEventOfType(event, 'choice') || isEventOfType(event, 'dropdown')) return event.payload.text
  return undefined
}

const typedFields: ReadonlySet<string> = new Set(eventFieldNames)

/**
 * The top-level properties docs/wire-format.md §18 does not list (internal fields real platforms add). Their values are
 * `unknown`: check them before use.
 *
 * @example
 * ```ts
 * const extras = getExtraFields(event) // { traceId: 'abc' }
 * ```
 */
export function getExtraFields(event: BotEvent): Readonly<Record<string, unknown>> {
  const extras: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(event)) if (!typedFields.has(key)) extras[key] = value
  return Object.freeze(extras)
}
