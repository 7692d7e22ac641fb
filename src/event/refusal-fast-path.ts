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
  for (const { name, kind } of fieldKinds) {
    const fieldValue = input[name]
    switch (kind) {
      case 'string':
        if (typeof fieldValue !== 'string') issues.push(stringIssue([name], fieldValue))
        continue
      case 'optionalString':
        if (fieldValue !== undefined && typeof fieldValue !== 'string') issues.push(stringIssue([name], fieldValue))
        continue
      case 'direction':
        if (fieldValue !== 'incoming' && fieldValue !== 'outgoing') {
          issues.push({ code: 'invalid_value', values: [...directions], path: [name], message: 'Invalid option', input: fieldValue } as z.core.$ZodIssue)
        }
        continue
      case 'createdOn':
        if (fieldValue !== undefined && parseEventDate(fieldValue)) continue
        if (fieldValue === undefined || (typeof fieldValue !== 'string' && !(fieldValue instanceof Date))) {
          // Neither branch of the union (string | Date) matched; a string or Date that is not a valid date-time has
          // its own message and is left to the schema.
          issues.push({ code: 'invalid_union', errors: [], path: [name], message: 'Invalid input', input: fieldValue } as unknown as z.core.$ZodIssue)
          continue
        }
        if (!schemaIssues(name, fieldValue, issues)) return undefined // the direct check and the schema disagree
        continue
      case 'record':
        if (typeof fieldValue !== 'object' || fieldValue === null || Array.isArray(fieldValue)) {
          issues.push({ code: 'invalid_type', expected: 'record', path: [name], message: 'Invalid input: expected record', input: fieldValue } as z.core.$ZodIssue)
          continue
        }
        if (isPlain(fieldValue)) continue
        break
      case 'tags':
        if (fieldValue === undefined || plainTags(fieldValue)) continue
        // Tags of plain objects with a value that is not a string: the issues are written directly.
        if (tagIssues(fieldValue, issues)) continue
        break
      case 'optionalObject':
        if (fieldValue === undefined) continue
        break
    }
    // A nested object or a date: its own schema decides (valid ones pass quickly).
    schemaIssues(name, fieldValue, issues)
  }
  // The payload's own schema runs whatever the other fields did, as in EventSchema's refinement; a payload of plain
  // string fields (`text`) gets its issues directly.
  if (!stringPayloadIssues(input['type'], input['payload'], issues)) {
    for (const issue of payloadIssues(input['type'], input['payload'])) issues.push(issue as z.core.$ZodIssue)
  }
  return issues.length > 0 ? issues : undefined
}

const directions = Object.freeze(['incoming', 'outgoing'])

/** How each top-level field is checked directly; `other` fields go to their own schema. */
type FieldKind = 'string' | 'optionalString' | 'direction' | 'createdOn' | 'record' | 'tags' | 'optionalObject' | 'other'

const kindByName: Readonly<Record<string, FieldKind>> = {
  botId: 'string',
  id: 'string',
  preview: 'string',
  type: 'string',
  conversationId: 'optionalString',
  integration: 'optionalString',
  messageId: 'optionalString',
  userId: 'optionalString',
  direction: 'direction',
  createdOn: 'createdOn',
  payload: 'record',
  state: 'record',
  tags: 'tags',
  kb: 'optionalObject',
  trigger: 'optionalObject',
}

/** The event's fields in the schema's order (the order of its issues), each with how it is checked. */
const fieldKinds: ReadonlyArray<{ name: string; kind: FieldKind }> = Object.keys(eventFieldSchemas).map((name) => ({
  name,
  kind: kindByName[name] ?? 'other',
}))

/** Hands a field to its own schema; pushes its issues (paths from the event) and answers whether it was refused. */
function schemaIssues(name: string, value: unknown, issues: z.core.$ZodIssue[]): boolean {
  const result = eventFieldSchemas[name]!.safeParse(value)
  if (result.success) return false
  for (const issue of result.error.issues) issues.push({ ...issue, path: [name, ...issue.path] } as z.core.$ZodIssue)
  return true
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
