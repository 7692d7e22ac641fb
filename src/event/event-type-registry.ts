import type { z } from 'zod'
import { BotshelfError } from '../errors/index.js'
import type { BuiltInPayloads } from './built-in-payloads.js'
import type { BotEvent } from './event-schema.js'
import type { OpenRecord } from './open-record.js'
import {
  isBuiltInType,
  lookupPayloadSchema,
  registeredTypeNames,
  storePayloadSchema,
  type PayloadSchema,
} from './payload-registry.js'
import { schemaFingerprint } from './schema-fingerprint.js'

/**
 * Event types whose payload is known, by type name: the built-in types (from `builtInPayloadSchemas`, the one place
 * they are listed). Types of your own are better declared with `defineEventTypes` (their schema gives their type,
 * scoped to one runtime); augmenting this interface still works for types shared by a whole program.
 *
 * @example
 * ```ts
 * type TextPayload = EventTypeRegistry['text'] // { text: string }
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface EventTypeRegistry extends BuiltInPayloads {}

/** A type name present in `EventTypeRegistry`. */
export type RegisteredEventType = keyof EventTypeRegistry & string

/** Payload of an event type: the registered payload, or an open record for an unknown type. */
export type PayloadOf<T extends string, R extends object = EventTypeRegistry> = T extends keyof R ? R[T] : OpenRecord

/** An event narrowed to one type, with the payload of that type. */
export type EventOfType<T extends string, P = PayloadOf<T>> = Omit<BotEvent, 'type' | 'payload'> & {
  type: T
  payload: P
}

/**
 * The union of the events of every type of a registry (default: the built-in and augmented types): `switch
 * (event.type)` narrows `event.payload` in each branch.
 *
 * @example
 * ```ts
 * if (isKnownEvent(event)) switch (event.type) { case 'text': return event.payload.text }
 * ```
 */
export type KnownEvent<R extends object = EventTypeRegistry> = { [T in keyof R & string]: EventOfType<T, R[T]> }[keyof R & string]

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
 * Thrown when an event type is defined with a bad name, a built-in name, or again with another schema. `code` is
 * `INVALID_EVENT_TYPE_DEFINITION`.
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

/** Throws unless `type` may name a new event type. */
export function checkNewTypeName(type: unknown): asserts type is string {
  if (typeof type !== 'string' || type.trim() === '') {
    throw new EventTypeDefinitionError(`Event type name must be a non-empty string, received ${JSON.stringify(type)}`)
  }
  if (isBuiltInType(type)) throw new EventTypeDefinitionError(`Event type "${type}" is built in; choose another name`)
}

/** True when two schemas describe the same payloads (the same object, or the same JSON Schema). */
export function sameSchema(a: PayloadSchema, b: PayloadSchema): boolean {
  if (a === b) return true
  const fingerprint = schemaFingerprint(a)
  return fingerprint !== undefined && fingerprint === schemaFingerprint(b)
}

/**
 * Registers an event type for the whole program and returns its definition. From then on `parseEvent` checks the
 * payload of events of that type, and the definition narrows events with `.is(event)` (or `isEventOfType(event,
 * definition)`). Defining it again with the same schema (a test re-importing the module) returns an equal
 * definition; with another schema it throws, as does a built-in name. To keep a type to one runtime, use
 * `defineEventTypes` instead.
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
  checkNewTypeName(type)
  const existing = lookupPayloadSchema(type)
  if (existing !== undefined && !sameSchema(existing, payloadSchema)) {
    throw new EventTypeDefinitionError(`Event type "${type}" is already defined with another payload schema`)
  }
  if (existing === undefined) storePayloadSchema(type, payloadSchema)
  return typeDefinition(type, payloadSchema)
}

/** The definition object of a type (no registration). */
export function typeDefinition<const T extends string, S extends PayloadSchema>(type: T, payloadSchema: S): EventTypeDefinition<T, z.output<S>> {
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
 * Type guard: true when the event has the given type and a payload that passes the type's schema. Narrows
 * `event.type` and `event.payload`. Pass a registered name (`'text'`, ...; an unknown name does not compile) or a
 * definition returned by `defineEventType`/`defineEventTypes`.
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
export function isEventOfType<E extends BotEvent, T extends RegisteredEventType>(
  event: E,
  type: T,
): event is E & { type: T; payload: EventTypeRegistry[T] }
export function isEventOfType(event: BotEvent, type: string | EventTypeDefinition<string, OpenRecord>): boolean {
  if (typeof type !== 'string') return type.is(event)
  if (event.type !== type) return false
  const schema = lookupPayloadSchema(type)
  return schema === undefined || schema.safeParse(event.payload).success
}

/**
 * Type guard: true when the event's type is registered (built in, or defined with `defineEventType`) and its payload
 * passes that type's schema. Then `switch (event.type)` narrows the payload in each branch.
 *
 * @example
 * ```ts
 * if (isKnownEvent(event)) {
 *   switch (event.type) {
 *     case 'text': return event.payload.text
 *     case 'image': return event.payload.imageUrl
 *   }
 * }
 * ```
 */
export function isKnownEvent<E extends BotEvent>(event: E): event is E & KnownEvent {
  const schema = lookupPayloadSchema(event.type)
  return schema !== undefined && schema.safeParse(event.payload).success
}
