import type { z } from 'zod'
import { builtInPayloadSchemas } from './built-in-payloads.js'
import type { OpenRecord } from './open-record.js'
import { compilePayloadCheck, type PayloadCheck } from './payload-check.js'

// The store of payload schemas by event type. It sits apart from `event-type-registry.ts` (the public API, which
// needs the `BotEvent` type) so that `event-schema.ts` can check payloads without an import cycle.

/** A payload schema: any zod schema whose output is an object. */
export type PayloadSchema = z.ZodType<OpenRecord>

const registry = new Map<string, PayloadSchema>(Object.entries(builtInPayloadSchemas))
const builtInNames = new Set(Object.keys(builtInPayloadSchemas))
/** Compiled checks by type, made on first use (a type's schema never changes once stored). */
const checks = new Map<string, PayloadCheck>()

/** True for the names of the built-in message types (`text`, `image`, ...). */
export function isBuiltInType(type: string): boolean {
  return builtInNames.has(type)
}

/** Adds built-in types (the storage events): registered like the message types, never redefinable. */
export function storeBuiltInPayloadSchemas(schemas: Readonly<Record<string, PayloadSchema>>): void {
  for (const [type, schema] of Object.entries(schemas)) {
    storePayloadSchema(type, schema)
    builtInNames.add(type)
  }
}

/** The schema registered for a type, or `undefined`. */
export function lookupPayloadSchema(type: string): PayloadSchema | undefined {
  return registry.get(type)
}

/** Records a schema; the caller has checked that the type is new. */
export function storePayloadSchema(type: string, schema: PayloadSchema): void {
  registry.set(type, schema)
  checks.delete(type)
  stringFields.delete(type)
}

/** Every registered type name, built-in first, then in definition order. */
export function registeredTypeNames(): string[] {
  return [...registry.keys()]
}

/**
 * True when the payload passes its type's schema (or the type has none): the same answer as `payloadIssues`
 * being empty, without building issues.
 *
 * @example
 * ```ts
 * payloadIsValid('text', { text: 'hi' }) // true
 * payloadIsValid('text', {}) // false
 * ```
 */
export function payloadIsValid(type: string, payload: unknown): boolean {
  let check = checks.get(type)
  if (check === undefined) {
    const schema = registry.get(type)
    if (schema === undefined) return true
    check = compilePayloadCheck(schema)
    checks.set(type, check)
  }
  if (check(payload)) return true
  // An object of plain strings is read exactly by its check: a refused one (`{ text: 42 }`) need not run the schema.
  const fields = stringFieldsOfPayload(type)
  if (fields !== undefined && isPlainRecord(payload)) return false
  // A compiled check may answer false where the schema accepts (a part it cannot read in detail): ask the schema.
  return registry.get(type)!.safeParse(payload).success
}

/** A payload schema's fields when it is an object of plain strings (no checks), by type; `null`: another kind. */
const stringFields = new Map<string, ReadonlyArray<{ key: string; optional: boolean }> | null>()

/**
 * The fields of a type's payload schema when it is a loose or stripping object of plain strings, each required or
 * optional, with no check anywhere (`text`: `[{ key: 'text', optional: false }]`); `undefined` otherwise. Lets a
 * refusal write a wrong field's issue directly (`refusal-fast-path.ts`) instead of running the schema.
 *
 * @example
 * ```ts
 * stringFieldsOfPayload('text') // [{ key: 'text', optional: false }]
 * stringFieldsOfPayload('image') // undefined (a URL is not a plain string)
 * ```
 */
export function stringFieldsOfPayload(type: string): ReadonlyArray<{ key: string; optional: boolean }> | undefined {
  let fields = stringFields.get(type)
  if (fields === undefined) {
    const schema = registry.get(type)
    fields = schema ? readStringFields(schema) : null
    stringFields.set(type, fields)
  }
  return fields ?? undefined
}

interface SchemaDef {
  type: string
  checks?: readonly unknown[]
  shape?: Record<string, z.ZodType>
  catchall?: z.ZodType
  innerType?: z.ZodType
  coerce?: boolean
  format?: string
}
const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def

function readStringFields(schema: z.ZodType): Array<{ key: string; optional: boolean }> | null {
  const def = defOf(schema)
  if (def.type !== 'object' || def.checks?.length || !def.shape) return null
  if (def.catchall && defOf(def.catchall).type !== 'unknown') return null
  const fields: Array<{ key: string; optional: boolean }> = []
  for (const [key, field] of Object.entries(def.shape)) {
    if (key === '__proto__') return null
    let fieldDef = defOf(field)
    const optional = fieldDef.type === 'optional'
    if (optional) {
      if (fieldDef.checks?.length || !fieldDef.innerType) return null
      fieldDef = defOf(fieldDef.innerType)
    }
    if (fieldDef.type !== 'string' || fieldDef.checks?.length || fieldDef.coerce || fieldDef.format) return null
    fields.push({ key, optional })
  }
  return fields
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

function isPlainRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__')
}
