import type { z } from 'zod'
import { BotshelfError } from '../errors/index.js'
import type {
  AudioPayload,
  CardPayload,
  CarouselPayload,
  ChoicePayload,
  DropdownPayload,
  FilePayload,
  ImagePayload,
  LocationPayload,
  MarkdownPayload,
  TextPayload,
  VideoPayload,
} from './built-in-payloads.js'
import type { BotEvent } from './event-schema.js'
import type { OpenRecord } from './open-record.js'
import {
  isBuiltInType,
  lookupPayloadSchema,
  registeredTypeNames,
  storePayloadSchema,
  type PayloadSchema,
} from './payload-registry.js'

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

/**
 * Thrown when an event type is defined twice or with a bad name. `code` is `INVALID_EVENT_TYPE_DEFINITION`.
 *
 * @example
 * ```ts
 * defineEventType('text', z.object({})) // throws: "text" is built in
 * ```
 */
export class EventTypeDefinitionError extends BotshelfError {
  declare readonly code: 'INVALID_EVENT_TYPE_DEFINITION'
  override readonly name = 'EventTypeDefinitionError'
  constructor(message: string) {
    super('InvalidPayload', 'INVALID_EVENT_TYPE_DEFINITION', message)
  }
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
  if (isBuiltInType(type)) {
    throw new EventTypeDefinitionError(`Event type "${type}" is built in; choose another name`)
  }
  if (lookupPayloadSchema(type) !== undefined) throw new EventTypeDefinitionError(`Event type "${type}" is already defined`)
  storePayloadSchema(type, payloadSchema)
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
  return lookupPayloadSchema(type)
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
  return registeredTypeNames()
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
  const schema = lookupPayloadSchema(type)
  return schema === undefined || schema.safeParse(event.payload).success
}
