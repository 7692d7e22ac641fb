import type { z } from 'zod'
import { isPlainWebUrl } from './plain-web-url.js'

/**
 * A payload check compiled once from a zod schema: a tree of small closures for the parts it understands (loose
 * or stripping objects, strings with length bounds, finite numbers with bounds, enums, arrays with length bounds,
 * optional fields, the plainest web URLs of `z.url()`); every other part (other URLs, refinements, transforms,
 * defaults, strict objects, ...) is handed to that part's own `safeParse`. Why: calling zod on a valid payload
 * walked its generic machinery and cost more than the rest of the event's check.
 *
 * A compiled check may only be stricter than the schema, never looser: `true` means the schema accepts the value
 * (the caller then skips it); `false` means "ask the schema", which decides and explains.
 * `payload-check.test.ts` compares both on valid and mutated payloads.
 */
export type PayloadCheck = (value: unknown) => boolean

/** What zod keeps in `_zod` that the compiler reads. */
interface Internals {
  def: {
    type: string
    checks?: ReadonlyArray<{ _zod: { def: { check: string; minimum?: number; maximum?: number; value?: unknown; inclusive?: boolean } } }>
    coerce?: boolean
    format?: string
    normalize?: unknown
    hostname?: unknown
    protocol?: unknown
    pattern?: unknown
    shape?: Record<string, z.ZodType>
    catchall?: z.ZodType
    element?: z.ZodType
    innerType?: z.ZodType
  }
  values?: ReadonlySet<unknown>
}

const internals = (schema: z.ZodType): Internals => (schema as unknown as { _zod: Internals })._zod

/**
 * Compiles a payload schema into a check. Never throws: a schema it cannot read becomes a call of its `safeParse`.
 *
 * @example
 * ```ts
 * const check = compilePayloadCheck(z.looseObject({ text: z.string() }))
 * check({ text: 'hi' }) // true
 * check({}) // false: ask the schema for the issues
 * ```
 */
export function compilePayloadCheck(schema: z.ZodType): PayloadCheck {
  return compileNode(schema)
}

function viaSchema(schema: z.ZodType): PayloadCheck {
  return (value) => schema.safeParse(value).success
}

function compileNode(schema: z.ZodType): PayloadCheck {
  const { def } = internals(schema)
  switch (def.type) {
    case 'object':
      return compileObject(schema) ?? viaSchema(schema)
    case 'string':
      return compileString(schema) ?? compileUrl(schema) ?? viaSchema(schema)
    case 'number':
      return compileNumber(schema) ?? viaSchema(schema)
    case 'enum':
      return compileEnum(schema) ?? viaSchema(schema)
    case 'array':
      return compileArray(schema) ?? viaSchema(schema)
    case 'optional': {
      if (def.checks?.length || !def.innerType) return viaSchema(schema)
      const inner = compileNode(def.innerType)
      return (value) => value === undefined || inner(value)
    }
    default:
      return viaSchema(schema)
  }
}

/** Length bounds of strings and arrays, or `undefined` when another check is present. */
function lengthBounds(internal: Internals): { min: number; max: number } | undefined {
  let min = 0
  let max = Number.POSITIVE_INFINITY
  for (const check of internal.def.checks ?? []) {
    const checkDef = check._zod.def
    if (checkDef.check === 'min_length' && typeof checkDef.minimum === 'number') min = Math.max(min, checkDef.minimum)
    else if (checkDef.check === 'max_length' && typeof checkDef.maximum === 'number') max = Math.min(max, checkDef.maximum)
    else return undefined
  }
  return { min, max }
}

function compileObject(schema: z.ZodType): PayloadCheck | undefined {
  const { def } = internals(schema)
  if (def.checks?.length || !def.shape) return undefined
  // Loose (`unknown` catch-all) or stripping (none) objects accept any extra key; strict ones are left to zod.
  if (def.catchall && internals(def.catchall).def.type !== 'unknown') return undefined
  const keys = Object.keys(def.shape)
  if (keys.includes('__proto__')) return undefined
  const checks = keys.map((key) => compileNode(def.shape![key]!))
  return (value) => {
    // zod's object test: any non-null, non-array object.
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const record = value as Record<string, unknown>
    for (let i = 0; i < keys.length; i++) if (!checks[i]!(record[keys[i]!])) return false
    return true
  }
}

function compileString(schema: z.ZodType): PayloadCheck | undefined {
  const internal = internals(schema)
  if (internal.def.coerce || internal.def.format !== undefined) return undefined
  const bounds = lengthBounds(internal)
  if (!bounds) return undefined
  const { min, max } = bounds
  return (value) => typeof value === 'string' && value.length >= min && value.length <= max
}

/**
 * `z.url()` without options: a string the URL parser accepts once trimmed. The plainest web URLs are recognized
 * here (`isPlainWebUrl`, which only accepts what the parser accepts); any other string asks the schema.
 */
function compileUrl(schema: z.ZodType): PayloadCheck | undefined {
  const { def } = internals(schema)
  if (def.format !== 'url' || def.coerce || def.checks?.length || def.pattern !== undefined) return undefined
  if ('normalize' in def || 'hostname' in def || 'protocol' in def) return undefined
  return (value) => typeof value === 'string' && (isPlainWebUrl(value) || schema.safeParse(value).success)
}

function compileNumber(schema: z.ZodType): PayloadCheck | undefined {
  const { def } = internals(schema)
  if (def.coerce || def.format !== undefined) return undefined
  const bounds: Array<(value: number) => boolean> = []
  for (const check of def.checks ?? []) {
    const { check: kind, value: limit, inclusive } = check._zod.def
    if (typeof limit !== 'number') return undefined
    if (kind === 'greater_than') bounds.push(inclusive ? (n) => n >= limit : (n) => n > limit)
    else if (kind === 'less_than') bounds.push(inclusive ? (n) => n <= limit : (n) => n < limit)
    else return undefined
  }
  return (value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return false
    for (const bound of bounds) if (!bound(value)) return false
    return true
  }
}

function compileEnum(schema: z.ZodType): PayloadCheck | undefined {
  const internal = internals(schema)
  const values = internal.values
  if (internal.def.checks?.length || !values) return undefined
  return (value) => values.has(value)
}

function compileArray(schema: z.ZodType): PayloadCheck | undefined {
  const internal = internals(schema)
  const bounds = lengthBounds(internal)
  if (!bounds || !internal.def.element) return undefined
  const { min, max } = bounds
  const element = compileNode(internal.def.element)
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false
    for (let i = 0; i < value.length; i++) if (!element(value[i])) return false
    return true
  }
}
