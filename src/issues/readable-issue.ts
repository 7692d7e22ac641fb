import type { z } from 'zod'

/**
 * One validation problem in plain words: where (`path`), what was expected and what was received.
 * Built from a zod issue; shared by event validation, webhook errors and the service's 400 answers.
 */
export interface ReadableIssue {
  /** Dot path of the offending field (`trigger.flowId`, `rows.3.age`), or `(root)`. */
  path: string
  /** What the schema wanted, in words (`"incoming" | "outgoing"`, `string`, `at most 30 characters`). */
  expected: string
  /** What was there, shortened (`"sideways"`, `number (42)`, `missing`). */
  received: string
  /** `path: expected X, received Y`, ready to show as is. */
  message: string
  /** The zod issue code (`invalid_type`, `invalid_value`, `too_big`, ...). */
  code: string
}

const MAX_SHOWN = 60

/**
 * Renders a received value briefly: strings quoted, long values cut, objects named by their kind.
 *
 * @example
 * ```ts
 * describeValue([1, 2, 3]) // 'array (3 items)'
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value
    return JSON.stringify(shown)
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} (${String(value)})`
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : `Date (${value.toISOString()})`
  if (Array.isArray(value)) return `array (${value.length} items)`
  return typeof value
}

/**
 * Formats a path array as `a.b.3.c`, or `(root)` when empty.
 *
 * @example
 * ```ts
 * formatPath(['rows', 3, 'name']) // 'rows.3.name'
 * ```
 */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(root)'
  // A loop of its own, not map + join: a refused event formats one path per issue, and map + join cost a tenth of it.
  let text = String(path[0])
  for (let i = 1; i < path.length; i++) text += `.${String(path[i])}`
  return text
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected
    case 'invalid_value':
      return issue.values.map((v) => JSON.stringify(v)).join(' | ')
    case 'too_big':
      return bound('at most', issue.maximum, issue.origin, issue.inclusive)
    case 'too_small':
      return bound('at least', issue.minimum, issue.origin, issue.inclusive)
    case 'invalid_format':
      // A schema's own words ("a name ending in Table") say more than its pattern; zod's default words do not.
      if (hasOwnWords(issue.message)) return withoutLeadingExpected(issue.message)
      return issue.format === 'regex' && 'pattern' in issue ? `a string matching ${String(issue.pattern)}` : `a valid ${issue.format}`
    case 'invalid_key':
      return issue.issues[0] ? `a key with ${expectedOf(issue.issues[0])}` : 'a valid key'
    case 'unrecognized_keys':
      return 'no other keys'
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`
    case 'invalid_union':
      return 'one of the allowed shapes'
    default:
      return withoutLeadingExpected(issue.message)
  }
}

/** Custom messages are written as "expected X"; the `expected` field holds X alone, so no reader doubles the word. */
function withoutLeadingExpected(message: string): string {
  return message.replace(/^expected\s+/i, '').replace(/,\s*received\s[\s\S]*$/, '')
}

/** Whether a message was written by a schema rather than zod's generic "Invalid string: ...". */
function hasOwnWords(message: string): boolean {
  return message !== '' && !/^Invalid\b/.test(message)
}

function bound(word: string, limit: unknown, origin: string, inclusive: boolean | undefined): string {
  const strict = inclusive === false ? (word === 'at most' ? 'less than' : 'more than') : word
  switch (origin) {
    case 'string':
      return `${strict} ${String(limit)} characters`
    case 'array':
    case 'set':
      return `${strict} ${String(limit)} items`
    case 'object':
      return `${strict} ${String(limit)} keys`
    default:
      return `${strict} ${String(limit)}`
  }
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = root
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

function receivedOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => JSON.stringify(k)).join(', ')
  // The key itself was refused, not its value.
  if (issue.code === 'invalid_key') return describeValue(issue.path.at(-1))
  const value = 'input' in issue && issue.input !== undefined ? issue.input : valueAt(input, issue.path)
  if (issue.code === 'too_big' || issue.code === 'too_small') {
    if (typeof value === 'string') return `${value.length} characters`
    if (Array.isArray(value)) return `${value.length} items`
  }
  return describeValue(value)
}

/**
 * Turns zod issues into readable issues. Pass the parsed input so that a missing or wrong value
 * can be named even when the schema did not report it.
 *
 * @example
 * ```ts
 * const result = schema.safeParse(input)
 * if (!result.success) toReadableIssues(result.error.issues, input)
 * // [{ path: 'direction', expected: '"incoming" | "outgoing"', received: '"sideways"',
 * //    message: 'direction: expected "incoming" | "outgoing", received "sideways"', code: 'invalid_value' }]
 * ```
 */
export function toReadableIssues(issues: ReadonlyArray<z.core.$ZodIssue>, input?: unknown): ReadableIssue[] {
  return issues.map((issue) => {
    const path = formatPath(issue.path)
    const expected = expectedOf(issue)
    const received = receivedOf(issue, input)
    // A custom message in the "expected X" form gets the received value like every other issue.
    const custom = issue.code === 'custom' && !(/^expected\s/i.test(issue.message) && !/\breceived\b/.test(issue.message)) ? issue.message : undefined
    const message = custom ? `${path}: ${custom}` : `${path}: expected ${expected}, received ${received}`
    return { path, expected, received, message, code: issue.code }
  })
}

/**
 * Joins readable issues into one message after a short lead: a single issue on the same line, several issues
 * one per line; no issue gives the lead alone.
 *
 * @example
 * ```ts
 * formatIssues('Invalid event', [direction])
 * // 'Invalid event: direction: expected "incoming" | "outgoing", received "sideways"'
 * formatIssues('Invalid event', [direction, botId])
 * // 'Invalid event:\n  - direction: expected "incoming" | "outgoing", received "sideways"\n  - botId: expected string, received missing'
 * ```
 */
export function formatIssues(lead: string, issues: ReadonlyArray<ReadableIssue>): string {
  if (issues.length === 0) return lead
  if (issues.length === 1) return `${lead}: ${issues[0]!.message}`
  return `${lead}:\n${issues.map((i) => `  - ${i.message}`).join('\n')}`
}
