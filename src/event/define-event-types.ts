import type { z } from 'zod'
import { toReadableIssues, type ReadableIssue } from '../issues/index.js'
import { builtInPayloadSchemas } from './built-in-payloads.js'
import type { BotEvent } from './event-schema.js'
import {
  checkNewTypeName,
  typeDefinition,
  type EventOfType,
  type EventTypeDefinition,
  type EventTypeRegistry,
  type KnownEvent,
} from './event-type-registry.js'
import { EventValidationError } from './event-validation-error.js'
import { parseEvent } from './parse-event.js'
import { isBuiltInType, lookupPayloadSchema, type PayloadSchema } from './payload-registry.js'

/** Payload schemas by type name, as `defineEventTypes` takes them. */
export type PayloadSchemas = Readonly<Record<string, PayloadSchema>>

/** The payload types of a map of schemas, read from the schemas. */
export type PayloadsOf<S extends PayloadSchemas> = { [K in keyof S & string]: z.output<S[K]> }

/** The built-in (and augmented) payloads plus those of a set of event types. */
export type TypesOf<S extends PayloadSchemas> = EventTypeRegistry & PayloadsOf<S>

/** A type name known to a set of event types: built in, or one of its own. */
export type TypeNameOf<S extends PayloadSchemas> = keyof TypesOf<S> & string

/**
 * Event types of one bot, declared once: each schema gives its type its payload type. Hand it to `defineBot` (or
 * `createRuntime({ eventTypes })`): that runtime checks the payloads of these types; other runtimes do not know them.
 */
export interface EventTypes<S extends PayloadSchemas = PayloadSchemas> {
  readonly kind: 'eventTypes'
  /** The schemas, by type name. */
  readonly schemas: S
  /** The names of its own types (not the built-in ones). */
  readonly names: readonly (keyof S & string)[]
  /**
   * The definition of one of its types (a guard with `.is(event)`).
   *
   * @example
   * ```ts
   * const Order = types.definition('order')
   * ```
   */
  definition<T extends keyof S & string>(type: T): EventTypeDefinition<T, z.output<S[T]>>
  /**
   * True when the type is built in or one of these.
   *
   * @example
   * ```ts
   * types.has('order') // true
   * ```
   */
  has(type: string): boolean
  /**
   * Type guard by name: the event has this type and its payload passes the schema. An unknown name does not compile.
   *
   * @example
   * ```ts
   * if (types.is(event, 'order')) event.payload.total
   * ```
   */
  is<T extends TypeNameOf<S>>(event: BotEvent, type: T): event is BotEvent & EventOfType<T, TypesOf<S>[T]>
  /**
   * Type guard: the event's type is built in or one of these, with a valid payload; `switch (event.type)` then
   * narrows.
   *
   * @example
   * ```ts
   * if (types.isKnown(event)) switch (event.type) { case 'order': return event.payload.orderId }
   * ```
   */
  isKnown(event: BotEvent): event is BotEvent & KnownEvent<TypesOf<S>>
  /**
   * Validates an event whose type is built in or one of these (throws `EventValidationError`, also for an unknown
   * type) and returns it as the union, ready for `switch (event.type)`.
   *
   * @example
   * ```ts
   * const event = types.parse(JSON.parse(body))
   * switch (event.type) { case 'order': console.log(event.payload.total) }
   * ```
   */
  parse(input: unknown): BotEvent & KnownEvent<TypesOf<S>>
  /**
   * The issues of the payload of an already validated event, when its type is one of these; `[]` otherwise.
   *
   * @example
   * ```ts
   * const issues = types.payloadIssues(event)
   * ```
   */
  payloadIssues(event: BotEvent): ReadableIssue[]
}

/**
 * Declares the event types of a bot once: the schema of each gives its payload type, with no `declare module`.
 * The set belongs to the runtime it is given to (two bots in one process may define `order` differently). Calling
 * it again with the same schemas (a test re-importing the module) is harmless: nothing global is touched. Throws
 * `EventTypeDefinitionError` for an empty or built-in name.
 *
 * @example
 * ```ts
 * const types = defineEventTypes({ order: z.object({ orderId: z.string(), total: z.number() }) })
 * const bot = defineBot({ eventTypes: types })
 * bot.defineHook({ name: 'orders', point: 'afterIncoming', types: ['order'], handler: ({ event }) => event.payload.total })
 * ```
 */
export function defineEventTypes<const S extends PayloadSchemas>(schemas: S): EventTypes<S> {
  const own = new Map<string, PayloadSchema>()
  for (const [type, schema] of Object.entries(schemas)) {
    checkNewTypeName(type)
    own.set(type, schema)
  }
  const schemaOf = (type: string): PayloadSchema | undefined => own.get(type) ?? lookupPayloadSchema(type)
  const valid = (event: BotEvent): boolean => {
    const schema = schemaOf(event.type)
    return schema !== undefined && schema.safeParse(event.payload).success
  }
  const payloadIssues = (event: BotEvent): ReadableIssue[] => {
    const schema = own.get(event.type)
    if (!schema) return []
    const result = schema.safeParse(event.payload)
    if (result.success) return []
    return toReadableIssues(
      result.error.issues.map((issue) => ({ ...issue, path: ['payload', ...issue.path] })),
      event,
    )
  }
  const types: EventTypes<S> = {
    kind: 'eventTypes',
    schemas,
    names: Object.freeze([...own.keys()]) as readonly (keyof S & string)[],
    definition: (type) => {
      const schema = own.get(type)
      if (!schema) throw new RangeError(`No event type "${type}" in this set; its types: ${[...own.keys()].join(', ')}`)
      return typeDefinition(type, schema) as never
    },
    has: (type) => own.has(type) || isBuiltInType(type),
    is: ((event: BotEvent, type: string) => event.type === type && valid(event)) as EventTypes<S>['is'],
    isKnown: ((event: BotEvent) => valid(event)) as EventTypes<S>['isKnown'],
    parse(input) {
      const event = parseEvent(input)
      if (!own.has(event.type) && !isBuiltInType(event.type)) {
        const known = [...new Set([...own.keys(), ...Object.keys(builtInPayloadSchemas)])].map((n) => JSON.stringify(n)).join(' | ')
        const issue: ReadableIssue = {
          path: 'type',
          expected: known,
          received: JSON.stringify(event.type),
          message: `type: expected ${known}, received ${JSON.stringify(event.type)}`,
          code: 'invalid_value',
        }
        throw new EventValidationError([issue])
      }
      const issues = payloadIssues(event)
      if (issues.length > 0) throw new EventValidationError(issues)
      return event as never
    },
    payloadIssues,
  }
  return Object.freeze(types)
}
