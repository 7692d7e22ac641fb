import type { z } from 'zod'
import { parseEventDate } from './created-on.js'
import { eventFieldSchemas } from './event-schema.js'
import { payloadIssues, stringFieldsOfPayload } from './payload-registry.js'

/**
 * The issues `EventSchema` would report for a refused event, found without walking the whole schema: each field is
 * checked directly, and only a field found wrong is handed to its own schema, whose issues are exactly the ones the
 * event's schema reports for it (same order: the shape's). Why: a refusal walked zod's generic object machinery and
 * cost 12-20x ajv's "all errors" on the same shapes; the issue asks for at most 5x.
 *
 * Answers `undefined` when it cannot be sure (not a plain object, an own `__proto__`, a field its direct check does
 * not know, or no fault found): the caller then asks `EventSchema`. `refusal-fast-path.test.ts` compares both.
 *
 * @example
 * ```ts
 * const issues = readRefusalIssues({ ...event, direction: 'sideways' }) // [{ code: 'invalid_value', path: ['direction'], ... }]
 * ```
 */
export function readRefusalIssues(value: unknown): z.core.$ZodIssue[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  if (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, '__proto__')) return undefined
  const input = value as Record<string, unknown>
  const issues: z.core.$ZodIssue[] = []
  for (const field in eventFieldSchemas) {
    const fieldValue = input[field]
    const verdict = quickCheck(field, fieldValue)
    if (verdict === 'valid') continue
    if (verdict === 'unknown') {
      // Tags of plain objects with a value that is not a string: the issues are written directly.
      if (field === 'tags' && tagIssues(fieldValue, issues)) continue
      // A nested object or a date: its own schema decides (valid ones pass quickly).
      const result = eventFieldSchemas[field]!.safeParse(fieldValue)
      if (result.success) continue
      for (const issue of result.error.issues) issues.push({ ...issue, path: [field, ...issue.path] } as z.core.$ZodIssue)
      continue
    }
    const direct = directIssue(field, fieldValue)
    if (direct) {
      issues.push(direct)
      continue
    }
    const result = eventFieldSchemas[field]!.safeParse(fieldValue)
    if (result.success) return undefined // the direct check and the schema disagree: let the schema answer
    for (const issue of result.error.issues) issues.push({ ...issue, path: [field, ...issue.path] } as z.core.$ZodIssue)
  }
  // The payload's own schema runs whatever the other fields did, as in EventSchema's refinement; a payload of plain
  // string fields (`text`) gets its issues directly.
  if (!stringPayloadIssues(input['type'], input['payload'], issues)) {
    for (const issue of payloadIssues(input['type'], input['payload'])) issues.push(issue as z.core.$ZodIssue)
  }
  return issues.length > 0 ? issues : undefined
}

const directions = Object.freeze(['incoming', 'outgoing'])

/** The issue zod reports for a wrong leaf field, written directly (what `toReadableIssues` reads of it). */
function directIssue(field: string, value: unknown): z.core.$ZodIssue | undefined {
  if (requiredStrings.has(field) || optionalStrings.has(field)) {
    return { code: 'invalid_type', expected: 'string', path: [field], message: 'Invalid input: expected string', input: value } as z.core.$ZodIssue
  }
  if (field === 'direction') {
    return { code: 'invalid_value', values: [...directions], path: [field], message: 'Invalid option', input: value } as z.core.$ZodIssue
  }
  if (field === 'createdOn' && (value === undefined || (typeof value !== 'string' && !(value instanceof Date)))) {
    // Neither branch of the union (string | Date) matched; a string or Date that is not a valid date-time has its
    // own message and is left to the schema.
    return { code: 'invalid_union', errors: [], path: [field], message: 'Invalid input', input: value } as unknown as z.core.$ZodIssue
  }
  if ((field === 'payload' || field === 'state') && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return { code: 'invalid_type', expected: 'record', path: [field], message: 'Invalid input: expected record', input: value } as z.core.$ZodIssue
  }
  return undefined
}

const optionalStrings = new Set(['conversationId', 'integration', 'messageId', 'userId'])
const requiredStrings = new Set(['botId', 'id', 'preview', 'type'])

/** `valid`, `invalid` (hand the field to its schema for the issue) or `unknown` (let its schema decide). */
function quickCheck(field: string, value: unknown): 'valid' | 'invalid' | 'unknown' {
  if (requiredStrings.has(field)) return typeof value === 'string' ? 'valid' : 'invalid'
  if (optionalStrings.has(field)) return value === undefined || typeof value === 'string' ? 'valid' : 'invalid'
  switch (field) {
    case 'direction':
      return value === 'incoming' || value === 'outgoing' ? 'valid' : 'invalid'
    case 'createdOn':
      return value !== undefined && parseEventDate(value) ? 'valid' : 'invalid'
    case 'payload':
    case 'state':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'invalid'
      return Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__') ? 'valid' : 'unknown'
    case 'tags':
      return value === undefined || plainTags(value) ? 'valid' : 'unknown'
    case 'kb':
    case 'trigger':
      return value === undefined ? 'valid' : 'unknown'
    default:
      return 'unknown'
  }
}

/** Tags of the common kind: a plain object of scopes, each absent or a plain object of strings. */
function plainTags(value: unknown): boolean {
  if (!isPlain(value)) return false
  for (const scope in value) {
    const tags = (value as Record<string, unknown>)[scope]
    if (tags === undefined) continue
    if (!isPlain(tags)) return false
    for (const key in tags) if (typeof (tags as Record<string, unknown>)[key] !== 'string') return false
  }
  return true
}

function isPlain(value: unknown): value is object {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__')
}

const tagScopes = Object.freeze(['conversation', 'message', 'user'])

/**
 * Pushes the issues of tags whose scopes are plain objects (a value that is not a string: `invalid_type`, in scope
 * then key order, as the tags schema reports them) and answers true; false (nothing pushed) for any other shape.
 */
function tagIssues(value: unknown, issues: z.core.$ZodIssue[]): boolean {
  if (!isPlain(value)) return false
  for (const scope of tagScopes) {
    const tags = (value as Record<string, unknown>)[scope]
    if (tags !== undefined && !isPlain(tags)) return false
  }
  for (const scope of tagScopes) {
    const tags = (value as Record<string, unknown>)[scope] as Record<string, unknown> | undefined
    if (tags === undefined) continue
    for (const key in tags) {
      const tag = tags[key]
      if (typeof tag !== 'string') issues.push(stringIssue(['tags', scope, key], tag))
    }
  }
  return true
}

/**
 * Pushes the issues of a payload whose type's schema is an object of plain strings (`text`) and answers true; false
 * (nothing pushed) when the schema is of another kind or the payload is not a plain object: `payloadIssues` decides.
 */
function stringPayloadIssues(type: unknown, payload: unknown, issues: z.core.$ZodIssue[]): boolean {
  if (typeof type !== 'string' || !isPlain(payload)) return false
  const fields = stringFieldsOfPayload(type)
  if (fields === undefined) return false
  for (const { key, optional } of fields) {
    const field = (payload as Record<string, unknown>)[key]
    if (typeof field === 'string' || (optional && field === undefined)) continue
    issues.push(stringIssue(['payload', key], field))
  }
  return true
}

function stringIssue(path: PropertyKey[], input: unknown): z.core.$ZodIssue {
  return { code: 'invalid_type', expected: 'string', path, message: 'Invalid input: expected string', input } as z.core.$ZodIssue
}
