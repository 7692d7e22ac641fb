import type { z } from 'zod'
import {
  builtInPayloadSchemas,
  type AudioPayload,
  type CardPayload,
  type CarouselPayload,
  type ChoicePayload,
  type DropdownPayload,
  type FilePayload,
  type ImagePayload,
  type LocationPayload,
  type MarkdownPayload,
  type TextPayload,
  type VideoPayload,
} from './built-in-payloads.js'
import type { BotEvent, OpenRecord } from './event-schema.js'

/**
 * Event types whose payload is known, by type name. Add your own with module augmentation so that
 * `isEventOfType(event, 'order')` narrows everywhere:
 *
 * @example
 * ```ts
 * const Order = defineEventType('order', z.object({ orderId: z.string(), total: z.number() }))
 * declare module 'botshelf' {
 *   interface EventTypeRegistry { order: z.output<typeof Order.payloadSchema> }
 * }
 * ```
 */
export interface EventTypeRegistry {
  text: TextPayload
  markdown: MarkdownPayload
  image: ImagePayload
  audio: AudioPayload
  video: VideoPayload
  file: FilePayload
  location: LocationPayload
  card: CardPayload
  carousel: CarouselPayload
  choice: ChoicePayload
  dropdown: DropdownPayload
}

/** A type name present in `EventTypeRegistry`. */
export type RegisteredEventType = keyof EventTypeRegistry & string

/** Payload of an event type: the registered payload, or an open record for an unknown type. */
export type PayloadOf<T extends string> = T extends keyof EventTypeRegistry ? EventTypeRegistry[T] : OpenRecord

/** An event narrowed to one type, with the payload of that type. */
export type EventOfType<T extends string, P = PayloadOf<T>> = Omit<BotEvent, 'type' | 'payload'> & {
  type: T
  payload: P
}

/** A payload schema: any zod schema whose output is an object. */
export type PayloadSchema = z.ZodType<OpenRecord>

/** What `defineEventType` returns: the type's name, its payload schema and a type guard. */
export interface EventTypeDefinition<T extends string, P extends OpenRecord> {
  /** The event `type` this definition matches. */
  readonly type: T
  /** The payload schema events of this type are checked against. */
  readonly payloadSchema: z.ZodType<P>
  /**
   * True when `event.type` is this type and its payload passes the schema; narrows `event.payload`.
   *
   * @example
   * ```ts
   * if (Order.is(event)) event.payload.orderId
   * ```
   */
  is<E extends BotEvent>(event: E): event is E & { type: T; payload: P }
}

const registry = new Map<string, PayloadSchema>(Object.entries(builtInPayloadSchemas))
const builtInNames = new Set(Object.keys(builtInPayloadSchemas))

/**
 * Thrown when an event type is defined twice or with a bad name. `code` is `invalid_event_type_definition`.
 *
 * @example
 * ```ts
 * defineEventType('text', z.object({})) // throws: "text" is built in
 * ```
 */
export class EventTypeDefinitionError extends Error {
  readonly code = 'invalid_event_type_definition'
  override readonly name = 'EventTypeDefinitionError'
}

/**
 * Registers an event type and its payload schema. From then on `parseEvent` checks the payload of events
 * of that type, and the returned definition narrows events with `.is(event)` (or `isEventOfType(event,
 * definition)`). Defining a built-in type or the same type twice throws.
 *
 * @example
 * ```ts
 * const Order = defineEventType('order', z.object({ orderId: z.string(), total: z.number() }))
 * if (Order.is(event)) console.log(event.payload.total)
 * ```
 */
export function defineEventType<const T extends string, S extends PayloadSchema>(
  type: T,
  payloadSchema: S,
): EventTypeDefinition<T, z.output<S>> {
  if (typeof type !== 'string' || type.trim() === '') {
    throw new EventTypeDefinitionError(`Event type name must be a non-empty string, received ${JSON.stringify(type)}`)
  }
  if (builtInNames.has(type)) {
    throw new EventTypeDefinitionError(`Event type "${type}" is built in; choose another name`)
  }
  if (registry.has(type)) throw new EventTypeDefinitionError(`Event type "${type}" is already defined`)
  registry.set(type, payloadSchema)
  return Object.freeze({
    type,
    payloadSchema: payloadSchema as unknown as z.ZodType<z.output<S>>,
    is<E extends BotEvent>(event: E): event is E & { type: T; payload: z.output<S> } {
      return event.type === type && payloadSchema.safeParse(event.payload).success
    },
  })
}

/**
 * The payload schema registered for an event type, or `undefined` for an unknown type.
 *
 * @example
 * ```ts
 * getPayloadSchema('text')?.parse({ text: 'hi' })
 * ```
 */
export function getPayloadSchema(type: string): PayloadSchema | undefined {
  return registry.get(type)
}

/**
 * Names of every registered event type (built-in first, then user-defined in definition order).
 *
 * @example
 * ```ts
 * listEventTypes() // ['text', 'markdown', 'image', ...]
 * ```
 */
export function listEventTypes(): string[] {
  return [...registry.keys()]
}

/**
 * Type guard: true when the event has the given type and, for a registered type, a payload that passes the
 * type's schema. Narrows `event.type` and `event.payload`. Pass a name (`'text'`, or a type registered through
 * `EventTypeRegistry`) or a definition returned by `defineEventType`.
 *
 * @example
 * ```ts
 * if (isEventOfType(event, 'text')) console.log(event.payload.text.toUpperCase())
 * if (isEventOfType(event, Order)) console.log(event.payload.orderId)
 * ```
 */
export function isEventOfType<E extends BotEvent, T extends string, P extends OpenRecord>(
  event: E,
  type: EventTypeDefinition<T, P>,
): event is E & { type: T; payload: P }
export function isEventOfType<E extends BotEvent, T extends RegisteredEventType | (string & {})>(
  event: E,
  type: T,
): event is E & { type: T; payload: PayloadOf<T> }
export function isEventOfType(event: BotEvent, type: string | EventTypeDefinition<string, OpenRecord>): boolean {
  if (typeof type !== 'string') return type.is(event)
  if (event.type !== type) return false
  const schema = registry.get(type)
  return schema === undefined || schema.safeParse(event.payload).success
}

/** Checks a payload against its type's schema; issues carry paths relative to the event (`payload.text`). */
export function payloadIssues(type: unknown, payload: unknown): z.core.$ZodRawIssue[] {
  if (typeof type !== 'string') return []
  const schema = registry.get(type)
  if (!schema) return []
  const result = schema.safeParse(payload)
  if (result.success) return []
  return result.error.issues.map(
    (issue) => ({ ...issue, path: ['payload', ...issue.path], input: inputAt(payload, issue.path) }) as z.core.$ZodRawIssue,
  )
}

function inputAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = root
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
