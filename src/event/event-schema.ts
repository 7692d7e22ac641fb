import { z } from 'zod'
import { CreatedOnSchema } from './created-on.js'
import { OpenRecordSchema, type OpenRecord } from './open-record.js'
import { payloadIssues } from './payload-registry.js'

/**
 * Where an event goes: `incoming` (from the user to the bot) or `outgoing` (from the bot to the user).
 *
 * @example
 * ```ts
 * EventDirectionSchema.parse('incoming') // 'incoming'
 * ```
 */
export const EventDirectionSchema = z.enum(['incoming', 'outgoing'])

/** `incoming` or `outgoing`. */
export type EventDirection = z.output<typeof EventDirectionSchema>

const triggerShape = {
  conversationId: z.string().optional(),
  eventName: z.string().optional(),
  flowId: z.string(),
  integration: z.string().optional(),
  nodeId: z.string(),
  userId: z.string().optional(),
}

/**
 * The trigger that sent the event: `flowId` and `nodeId` are required, the rest is optional.
 * Unknown keys are kept.
 *
 * @example
 * ```ts
 * TriggerSchema.parse({ flowId: 'flow_1', nodeId: 'node_1' })
 * ```
 */
export const TriggerSchema = z.looseObject(triggerShape)

/** The trigger of an event (`flowId`, `nodeId`, and optionally `conversationId`, `eventName`, `integration`, `userId`). */
export type Trigger = z.output<z.ZodObject<typeof triggerShape>>

/** Tag values are strings, as everywhere on the platform (files, tables, conversations). */
const TagMapSchema = z.record(z.string(), z.string())

const tagsShape = {
  conversation: TagMapSchema.optional(),
  message: TagMapSchema.optional(),
  user: TagMapSchema.optional(),
}

/**
 * Tags of the event by scope (`conversation`, `message`, `user`), each a map of string to string.
 *
 * @example
 * ```ts
 * EventTagsSchema.parse({ conversation: { topic: 'billing' } })
 * ```
 */
export const EventTagsSchema = z.looseObject(tagsShape)

/** Tags of the event, by scope. */
export type EventTags = z.output<z.ZodObject<typeof tagsShape>>

/** The scopes an event carries tags for. */
export type TagScope = 'conversation' | 'message' | 'user'

const kbShape = {
  included: z.array(OpenRecordSchema),
  results: z.array(OpenRecordSchema).optional(),
}

/**
 * Knowledge bases queried for the event: `included` is required, `results` optional; the entries'
 * inner structure is not published (docs/wire-format.md §18), so each is an open record.
 *
 * @example
 * ```ts
 * KbSchema.parse({ included: [{ id: 'kb_1' }] })
 * ```
 */
export const KbSchema = z.looseObject(kbShape)

/** Knowledge bases queried for the event. */
export type Kb = z.output<z.ZodObject<typeof kbShape>>

/**
 * The state of the event. Its structure is not published (docs/wire-format.md §18): an open record.
 *
 * @example
 * ```ts
 * EventStateSchema.parse({ session: { step: 2 } })
 * ```
 */
export const EventStateSchema = OpenRecordSchema

/** State data of the event. */
export type EventState = OpenRecord

const eventShape = {
  botId: z.string(),
  conversationId: z.string().optional(),
  createdOn: CreatedOnSchema,
  direction: EventDirectionSchema,
  id: z.string(),
  integration: z.string().optional(),
  kb: KbSchema.optional(),
  messageId: z.string().optional(),
  payload: OpenRecordSchema,
  preview: z.string(),
  state: EventStateSchema,
  tags: EventTagsSchema.optional(),
  trigger: TriggerSchema.optional(),
  type: z.string(),
  userId: z.string().optional(),
}

/** The schema of each top-level field, in the order zod reports their issues (for `refusal-fast-path.ts`). */
export const eventFieldSchemas: Readonly<Record<string, z.ZodType>> = eventShape

/**
 * The `event` object of a bot's execution (docs/wire-format.md §18). Required: `botId`, `createdOn`, `direction`, `id`,
 * `payload`, `preview`, `state`, `type`; everything else is optional. `createdOn` accepts an ISO 8601 string
 * (any offset) or a `Date` and comes out as a `Date`. When `type` is a registered event type (`text`, `image`,
 * ... or one added with `defineEventType`), `payload` is checked against its schema; an unknown type keeps an
 * open payload. Extra top-level properties are kept, untyped.
 *
 * @example
 * ```ts
 * const result = EventSchema.safeParse(JSON.parse(body))
 * if (result.success) console.log(result.data.createdOn.getTime())
 * ```
 */
export const EventSchema = z.looseObject(eventShape).superRefine(
  (event, ctx) => {
    // Runs even when other fields failed, so one answer lists every problem.
    const candidate = event as { type?: unknown; payload?: unknown }
    for (const issue of payloadIssues(candidate.type, candidate.payload)) ctx.addIssue(issue)
  },
  { when: (parse) => typeof parse.value === 'object' && parse.value !== null },
)

/**
 * A validated bot event. The typed fields only: extra properties a platform adds are kept at runtime
 * (see `getExtraFields`) but are not part of the type, so a typo is a compile error.
 */
export type BotEvent = z.output<z.ZodObject<TypedEventShape>>

/** What `parseEvent` accepts: like `BotEvent`, but `createdOn` may be an ISO 8601 string. */
export type BotEventInput = z.input<z.ZodObject<TypedEventShape>>

/** The event shape as the types see it: nested objects without their runtime-only open index signature. */
type TypedEventShape = Omit<typeof eventShape, 'kb' | 'tags' | 'trigger'> & {
  kb: z.ZodOptional<z.ZodObject<typeof kbShape>>
  tags: z.ZodOptional<z.ZodObject<typeof tagsShape>>
  trigger: z.ZodOptional<z.ZodObject<typeof triggerShape>>
}

/** Names of the typed top-level fields, in the order of docs/wire-format.md §18. */
export const eventFieldNames = Object.freeze(Object.keys(eventShape)) as ReadonlyArray<keyof BotEvent>
