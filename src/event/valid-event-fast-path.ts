import { parseEventDate } from './created-on.js'
import { payloadIssues } from './payload-registry.js'

/**
 * A direct check of the common, valid event, building the very output `EventSchema` builds. Why: zod's generic
 * object and record walk was most of an event's validation cost. Anything unusual (a missing or mistyped field,
 * an object that is not a plain `{}`, a `__proto__` key, a present-but-undefined field) answers `undefined` and
 * the caller runs `EventSchema`, which also builds every issue. `valid-event-fast-path.test.ts` compares both.
 */

const REQUIRED_STRINGS = ['botId', 'id', 'preview', 'type'] as const
const OPTIONAL_STRINGS = ['conversationId', 'integration', 'messageId', 'userId'] as const
/** The typed fields in `EventSchema`'s shape order: zod writes its output in this order, then the extra keys. */
const SHAPE_ORDER = [
  'botId',
  'conversationId',
  'createdOn',
  'direction',
  'id',
  'integration',
  'kb',
  'messageId',
  'payload',
  'preview',
  'state',
  'tags',
  'trigger',
  'type',
  'userId',
] as const
const SHAPE_KEYS = new Set<string>(SHAPE_ORDER)
const TRIGGER_ORDER = ['conversationId', 'eventName', 'flowId', 'integration', 'nodeId', 'userId'] as const
const TRIGGER_KEYS = new Set<string>(TRIGGER_ORDER)
const TAG_SCOPES = ['conversation', 'message', 'user'] as const
const TAG_SCOPE_KEYS = new Set<string>(TAG_SCOPES)
const KB_ORDER = ['included', 'results'] as const
const KB_KEYS = new Set<string>(KB_ORDER)

type Plain = Record<string, unknown>

/**
 * The validated event when `input` is a valid event of the common kind, else `undefined` (the caller then asks
 * `EventSchema`, which decides and explains).
 *
 * @example
 * ```ts
 * const event = readValidEvent(JSON.parse(body)) ?? EventSchema.parse(JSON.parse(body))
 * ```
 */
export function readValidEvent(input: unknown): Plain | undefined {
  if (!isSimpleObject(input)) return undefined
  for (const key of REQUIRED_STRINGS) if (typeof input[key] !== 'string') return undefined
  for (const key of OPTIONAL_STRINGS) if (key in input && typeof input[key] !== 'string') return undefined
  const direction = input.direction
  if (direction !== 'incoming' && direction !== 'outgoing') return undefined
  const createdOn = parseEventDate(input.createdOn)
  if (!createdOn) return undefined
  const payload = copyRecord(input.payload)
  const state = copyRecord(input.state)
  if (!payload || !state) return undefined
  const converted: Plain = { createdOn, payload, state }
  if ('kb' in input && !(converted.kb = readKb(input.kb))) return undefined
  if ('tags' in input && !(converted.tags = readTags(input.tags))) return undefined
  if ('trigger' in input && !(converted.trigger = readTrigger(input.trigger))) return undefined
  if (payloadIssues(input.type, input.payload).length > 0) return undefined
  return assemble(input, SHAPE_ORDER, SHAPE_KEYS, converted)
}

/** A plain `{}` object (prototype `Object.prototype`) without an own `__proto__` key. */
function isSimpleObject(value: unknown): value is Plain {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.prototype.hasOwnProperty.call(value, '__proto__')
  )
}

/** Known keys in shape order (converted or copied), then the other keys as `for…in` gives them. */
function assemble(input: Plain, order: readonly string[], known: ReadonlySet<string>, converted: Plain): Plain {
  const output: Plain = {}
  for (const key of order) {
    const value = input[key]
    if (value !== undefined || key in input) output[key] = value
  }
  for (const key in input) if (!known.has(key)) output[key] = input[key]
  // Converted keys are present in the input, so they already hold their place: replacing keeps the order.
  for (const key of Object.keys(converted)) output[key] = converted[key]
  return output
}

function copyRecord(value: unknown): Plain | undefined {
  if (!isSimpleObject(value)) return undefined
  const output: Plain = {}
  for (const key of Object.keys(value)) output[key] = value[key]
  return output
}

function copyStringRecord(value: unknown): Plain | undefined {
  if (!isSimpleObject(value)) return undefined
  const output: Plain = {}
  for (const key of Object.keys(value)) {
    const entry = value[key]
    if (typeof entry !== 'string') return undefined
    output[key] = entry
  }
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
  if (!isSimpleObject(value)) return undefined
  const included = copyRecordArray(value.included)
  if (!included) return undefined
  const converted: Plain = { included }
  if ('results' in value && !(converted.results = copyRecordArray(value.results))) return undefined
  return assemble(value, KB_ORDER, KB_KEYS, converted)
}

function readTags(value: unknown): Plain | undefined {
  if (!isSimpleObject(value)) return undefined
  const converted: Plain = {}
  for (const scope of TAG_SCOPES) {
    if (scope in value && !(converted[scope] = copyStringRecord(value[scope]))) return undefined
  }
  return assemble(value, TAG_SCOPES, TAG_SCOPE_KEYS, converted)
}

function readTrigger(value: unknown): Plain | undefined {
  if (!isSimpleObject(value)) return undefined
  if (typeof value.flowId !== 'string' || typeof value.nodeId !== 'string') return undefined
  for (const key of TRIGGER_ORDER) if (key in value && typeof value[key] !== 'string') return undefined
  return assemble(value, TRIGGER_ORDER, TRIGGER_KEYS, {})
}
