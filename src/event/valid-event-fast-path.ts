import { parseEventDate } from './created-on.js'
import { payloadIsValid } from './payload-registry.js'

/**
 * A direct check of the common, valid event, building the very output `EventSchema` builds. Why: zod's generic
 * object and record walk was most of an event's validation cost. Anything unusual (a missing or mistyped field,
 * an object that is not a plain `{}`, a `__proto__` key, a present-but-undefined field) answers `undefined` and
 * the caller runs `EventSchema`, which also builds every issue. `valid-event-fast-path.test.ts` compares both.
 */

type Plain = Record<string, unknown>

/** Marks an optional field that is absent, as opposed to one present with a bad value (`undefined` here). */
const ABSENT = null

/**
 * The validated event when `value` is a valid event of the common kind, else `undefined` (the caller then asks
 * `EventSchema`, which decides and explains).
 *
 * Written field by field, with literal property names, rather than as a loop over the shape: V8 then reads and
 * writes each field through an inline cache, and the output objects share one hidden class (a profile put the
 * generic loop at a third of the time of a valid event).
 *
 * @example
 * ```ts
 * const event = readValidEvent(JSON.parse(body)) ?? EventSchema.parse(JSON.parse(body))
 * ```
 */
export function readValidEvent(value: unknown): Plain | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const input = value as Plain
  const { botId, id, preview, type, direction } = input
  // The prototype is tested after the first reads: V8 then knows the shapes of `input` and reads the prototype
  // from them instead of calling into the runtime.
  if (Object.getPrototypeOf(input) !== Object.prototype) return undefined
  if (typeof botId !== 'string' || typeof id !== 'string' || typeof preview !== 'string' || typeof type !== 'string') return undefined
  if (direction !== 'incoming' && direction !== 'outgoing') return undefined
  // An optional string is either a string or absent (not even present as `undefined`, which zod keeps as a key).
  const { conversationId, integration, messageId, userId } = input
  if (conversationId !== undefined ? typeof conversationId !== 'string' : 'conversationId' in input) return undefined
  if (integration !== undefined ? typeof integration !== 'string' : 'integration' in input) return undefined
  if (messageId !== undefined ? typeof messageId !== 'string' : 'messageId' in input) return undefined
  if (userId !== undefined ? typeof userId !== 'string' : 'userId' in input) return undefined
  const createdOn = parseEventDate(input.createdOn)
  if (!createdOn) return undefined
  // Each record is copied by a spread of its own (not one shared helper): V8 keeps the shapes it has seen per
  // spread, and one spread for every kind of record saw too many of them to copy any quickly.
  const payloadValue = input.payload
  const stateValue = input.state
  if (!isSimpleRecord(payloadValue) || !isSimpleRecord(stateValue)) return undefined
  const payload = { ...payloadValue }
  const state = { ...stateValue }
  const kbValue = input.kb
  const kb = kbValue !== undefined ? readKb(kbValue) : 'kb' in input ? undefined : ABSENT
  const tagsValue = input.tags
  const tags = tagsValue !== undefined ? readTags(tagsValue) : 'tags' in input ? undefined : ABSENT
  const triggerValue = input.trigger
  const trigger = triggerValue !== undefined ? readTrigger(triggerValue) : 'trigger' in input ? undefined : ABSENT
  if (kb === undefined || tags === undefined || trigger === undefined) return undefined
  if (!payloadIsValid(type, input.payload)) return undefined

  // zod's output: the typed keys in shape order (an absent optional key stays absent), then the extra keys.
  const output: Plain = {}
  output.botId = botId
  if (conversationId !== undefined) output.conversationId = conversationId
  output.createdOn = createdOn
  output.direction = direction
  output.id = id
  if (integration !== undefined) output.integration = integration
  if (kb !== ABSENT) output.kb = kb
  if (messageId !== undefined) output.messageId = messageId
  output.payload = payload
  output.preview = preview
  output.state = state
  if (tags !== ABSENT) output.tags = tags
  if (trigger !== ABSENT) output.trigger = trigger
  output.type = type
  if (userId !== undefined) output.userId = userId
  // An own `__proto__` key (JSON.parse makes one) is left to the schema; the loop is where it shows, as an extra key.
  for (const key in input) {
    if (isShapeKey(key)) continue
    if (key === '__proto__') return undefined
    output[key] = input[key]
  }
  return output
}

/** For a field read as `undefined`: `ABSENT` when the key is missing, `undefined` (not valid) when it is present. */
function absentOrInvalid(input: Plain, key: string): typeof ABSENT | undefined {
  return key in input ? undefined : ABSENT
}

/**
 * Whether a key is one of the typed fields of `EventSchema` (a `switch` on literals: cheaper here than a `Set`
 * lookup). zod writes the typed fields in shape order, then the extra keys; `readValidEvent` does the same.
 */
function isShapeKey(key: string): boolean {
  switch (key) {
    case 'botId':
    case 'conversationId':
    case 'createdOn':
    case 'direction':
    case 'id':
    case 'integration':
    case 'kb':
    case 'messageId':
    case 'payload':
    case 'preview':
    case 'state':
    case 'tags':
    case 'trigger':
    case 'type':
    case 'userId':
      return true
    default:
      return false
  }
}

function isTriggerKey(key: string): boolean {
  switch (key) {
    case 'conversationId':
    case 'eventName':
    case 'flowId':
    case 'integration':
    case 'nodeId':
    case 'userId':
      return true
    default:
      return false
  }
}

/**
 * An object whose prototype is `Object.prototype`. The objects read field by field (the event, `kb`, `tags`,
 * `trigger`) also refuse an own `__proto__` key, in the loop over their extra keys, where such a key shows.
 */
function isObjectOfObjectPrototype(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype
}

/** A plain `{}` object (prototype `Object.prototype`) without an own `__proto__` key. */
function isSimpleObject(value: unknown): value is Plain {
  return isObjectOfObjectPrototype(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__')
}

/**
 * A record (zod's `z.record(z.string(), …)`) as the fast path accepts it: a plain object without symbol keys
 * (zod reads symbol keys too and refuses them as keys that are not strings; the schema then explains).
 */
function isSimpleRecord(value: unknown): value is Plain {
  return isSimpleObject(value) && Object.getOwnPropertySymbols(value).length === 0
}

/**
 * A copy of a record's own enumerable keys, in their order. Spread is a single built-in copy (several times
 * cheaper than a loop over `Object.keys`) and defines properties, so no key can reach a prototype setter.
 */
function copyRecord(value: unknown): Plain | undefined {
  if (!isSimpleRecord(value)) return undefined
  return { ...value }
}

function copyStringRecord(value: unknown): Plain | undefined {
  if (!isSimpleRecord(value)) return undefined
  const output: Plain = { ...value }
  for (const key in output) if (typeof output[key] !== 'string') return undefined
  return output
}

function copyRecordArray(value: unknown): Plain[] | undefined {
  if (!Array.isArray(value)) return undefined
  const output: Plain[] = []
  for (const entry of value) {
    const copy = copyRecord(entry)
    if (!copy) return undefined
    output.push(copy)
  }
  return output
}

function readKb(value: unknown): Plain | undefined {
  if (!isObjectOfObjectPrototype(value)) return undefined
  const included = copyRecordArray(value.included)
  if (!included) return undefined
  const resultsValue = value.results
  const results = resultsValue === undefined ? absentOrInvalid(value, 'results') : copyRecordArray(resultsValue)
  if (results === undefined) return undefined
  const output: Plain = { included }
  if (results !== ABSENT) output.results = results
  for (const key in value) {
    if (key === 'included' || key === 'results') continue
    if (key === '__proto__') return undefined
    output[key] = value[key]
  }
  return output
}

function readTags(value: unknown): Plain | undefined {
  if (!isObjectOfObjectPrototype(value)) return undefined
  const conversationValue = value.conversation
  const conversation = conversationValue === undefined ? absentOrInvalid(value, 'conversation') : copyStringRecord(conversationValue)
  const messageValue = value.message
  const message = messageValue === undefined ? absentOrInvalid(value, 'message') : copyStringRecord(messageValue)
  const userValue = value.user
  const user = userValue === undefined ? absentOrInvalid(value, 'user') : copyStringRecord(userValue)
  if (conversation === undefined || message === undefined || user === undefined) return undefined
  const output: Plain = {}
  if (conversation !== ABSENT) output.conversation = conversation
  if (message !== ABSENT) output.message = message
  if (user !== ABSENT) output.user = user
  for (const key in value) {
    if (key === 'conversation' || key === 'message' || key === 'user') continue
    if (key === '__proto__') return undefined
    output[key] = value[key]
  }
  return output
}

function readTrigger(value: unknown): Plain | undefined {
  if (!isObjectOfObjectPrototype(value)) return undefined
  // Literal names, as in readValidEvent: an optional string is a string or absent (not present as `undefined`).
  const { conversationId, eventName, flowId, integration, nodeId, userId } = value
  if (typeof flowId !== 'string' || typeof nodeId !== 'string') return undefined
  if (conversationId !== undefined ? typeof conversationId !== 'string' : 'conversationId' in value) return undefined
  if (eventName !== undefined ? typeof eventName !== 'string' : 'eventName' in value) return undefined
  if (integration !== undefined ? typeof integration !== 'string' : 'integration' in value) return undefined
  if (userId !== undefined ? typeof userId !== 'string' : 'userId' in value) return undefined
  const output: Plain = {}
  if (conversationId !== undefined) output.conversationId = conversationId
  if (eventName !== undefined) output.eventName = eventName
  output.flowId = flowId
  if (integration !== undefined) output.integration = integration
  output.nodeId = nodeId
  if (userId !== undefined) output.userId = userId
  for (const key in value) {
    if (isTriggerKey(key)) continue
    if (key === '__proto__') return undefined
    output[key] = value[key]
  }
  return output
}
