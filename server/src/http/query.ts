import qs from 'qs'
import type { z } from 'zod'
import { inputBounds } from 'botshelf/api'
import type { ReadableIssue } from 'botshelf/api'
import { invalidFromIssues } from './service-error.js'
import { jsonTextIssue } from './json-text-bounds.js'

type Path = ReadonlyArray<string | number>

function queryError(issue: ReadableIssue): Error {
  return invalidFromIssues('Invalid query parameters', [issue])
}

type Def = { type: string; [key: string]: unknown }

function defOf(schema: unknown): Def | undefined {
  const zod = (schema as { _zod?: { def?: Def } } | undefined)?._zod
  return zod?.def
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'])

/** Strips optional/default/nullable/pipe wrappers to the schema that decides the shape. */
function unwrap(schema: unknown): unknown {
  let current = schema
  for (let i = 0; i < 20; i++) {
    const def = defOf(current)
    if (!def) return current
    if (WRAPPERS.has(def.type)) current = def.innerType
    else if (def.type === 'pipe') current = def.in
    else if (def.type === 'lazy') current = (def.getter as () => unknown)()
    else return current
  }
  return current
}

function kindOf(schema: unknown): string {
  return defOf(unwrap(schema))?.type ?? 'unknown'
}

function coerceScalar(value: string, kind: string): unknown {
  if (kind === 'boolean') {
    if (value === 'true') return true
    if (value === 'false') return false
    return value
  }
  if (kind === 'number' || kind === 'int' || kind === 'bigint') {
    if (value.trim() !== '' && Number.isFinite(Number(value))) return Number(value)
    return value
  }
  return value
}

function looksLikeJsonObject(value: string): boolean {
  const trimmed = value.trim()
  return trimmed.startsWith('{') && trimmed.endsWith('}')
}

/**
 * Coerces one value parsed from a query string towards what its zod schema wants: `"true"`/`"false"` to
 * booleans, numeric strings to numbers, a scalar to a one-item array, a JSON object string to an object
 * (where an object is wanted). Values the schema cannot guide are left as they are, so validation reports
 * them with their real received value. A JSON object string is checked against the input bounds before it is
 * parsed (docs/decisions/0701-input-bounds.md): more than 64 levels of nesting or a `"__proto__"` key is an
 * `InvalidPayload` naming the parameter (`Invalid query parameters: tags.__proto__: …`).
 *
 * @example
 * ```ts
 * coerceToSchema('a', z.array(z.string())) // ['a']
 * coerceToSchema('20', z.number().optional()) // 20
 * ```
 */
export function coerceToSchema(value: unknown, schema: unknown): unknown {
  return coerce(value, schema, [])
}

function coerce(value: unknown, schema: unknown, path: Path): unknown {
  const inner = unwrap(schema)
  const def = defOf(inner)
  if (!def) return value
  switch (def.type) {
    case 'boolean':
    case 'number':
    case 'int':
    case 'bigint':
      return typeof value === 'string' ? coerceScalar(value, def.type) : value
    case 'array': {
      const items = Array.isArray(value) ? value : value === undefined ? value : [value]
      return Array.isArray(items) ? items.map((item, i) => coerce(item, def.element, [...path, i])) : items
    }
    case 'object': {
      const parsed = typeof value === 'string' && looksLikeJsonObject(value) ? tryJson(value, path) : value
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed
      const shape = (def.shape ?? {}) as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(parsed)) out[key] = Object.hasOwn(shape, key) ? coerce(item, shape[key], [...path, key]) : item
      return out
    }
    case 'record': {
      const parsed = typeof value === 'string' && looksLikeJsonObject(value) ? tryJson(value, path) : value
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(parsed)) out[key] = coerce(item, def.valueType, [...path, key])
      return out
    }
    case 'union': {
      const options = (def.options ?? []) as unknown[]
      if (typeof value === 'string' && looksLikeJsonObject(value) && options.some((o) => ['object', 'record'].includes(kindOf(o)))) {
        const parsed = tryJson(value, path)
        const target = options.find((o) => ['object', 'record'].includes(kindOf(o)))
        return coerce(parsed, target, path)
      }
      if (Array.isArray(value)) {
        const target = options.find((o) => kindOf(o) === 'array')
        return target ? coerce(value, target, path) : value
      }
      if (typeof value === 'string') {
        if (options.some((o) => kindOf(o) === 'string' || kindOf(o) === 'enum' || kindOf(o) === 'literal')) return value
        const scalar = options.find((o) => ['boolean', 'number', 'int'].includes(kindOf(o)))
        if (scalar) return coerceScalar(value, kindOf(scalar))
        const array = options.find((o) => kindOf(o) === 'array')
        if (array) return coerce(value, array, path)
        return value
      }
      if (value !== null && typeof value === 'object') {
        const target = options.find((o) => ['object', 'record'].includes(kindOf(o)))
        return target ? coerce(value, target, path) : value
      }
      return value
    }
    case 'any':
    case 'unknown':
      return typeof value === 'string' && looksLikeJsonObject(value) ? (tryJson(value, path) ?? value) : value
    default:
      return value
  }
}

function tryJson(text: string, path: Path): unknown {
  const issue = jsonTextIssue(text, { prefix: path })
  if (issue) throw queryError(issue)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

const QS_OPTIONS = {
  allowDots: true,
  depth: 10,
  arrayLimit: 1000,
  parameterLimit: 2000,
  // Objects without a prototype: `tags.toString=x` is a tag named "toString", not dropped as a prototype name.
  plainObjects: true,
  // Past a limit, refuse instead of silently dropping parameters or turning a list into an object.
  throwOnLimitExceeded: true,
} as const

/** The first query parameter whose name has a `__proto__` segment (qs would drop it silently), if any. */
function forbiddenParameter(search: string): string | undefined {
  for (const name of new URLSearchParams(search).keys()) {
    if (name.split(/[.[\]]/).includes(inputBounds.forbiddenKey)) return name
  }
  return undefined
}

function limitIssue(error: unknown): ReadableIssue {
  const text = error instanceof Error ? error.message : String(error)
  const parameters = /Only (\d+) parameters/.exec(text)
  if (parameters) return { path: '(root)', expected: `at most ${parameters[1]} parameters`, received: 'more', message: `(root): expected at most ${parameters[1]} parameters, received more`, code: 'too_big' }
  const elements = /Only (\d+) elements/.exec(text)
  const limit = elements ? elements[1] : String(QS_OPTIONS.arrayLimit)
  return { path: '(root)', expected: `at most ${limit} values of one parameter`, received: 'more', message: `(root): expected at most ${limit} values of one parameter, received more`, code: 'too_big' }
}

/**
 * Parses a query string the way `@botpress/client` writes it (`qs`, dot notation, repeated keys), then
 * coerces it towards the operation's query schema (see `coerceToSchema`). Validation is left to the caller,
 * except for what the parsing itself cannot represent, answered as `InvalidPayload` ("Invalid query
 * parameters: …"): a parameter name with a `__proto__` segment, more than 2000 parameters or 1000 values of one
 * parameter, and a JSON value past the input bounds (docs/decisions/0701-input-bounds.md). Names of prototype
 * properties (`tags.toString`) are ordinary names.
 *
 * @example
 * ```ts
 * parseQuery('?ids=a&indexed=true&tags.k=v&tags.k=w', listFilesQuerySchema)
 * // { ids: ['a'], indexed: true, tags: { k: ['v', 'w'] } }
 * ```
 */
export function parseQuery(search: string, schema?: z.ZodType): Record<string, unknown> {
  const text = search.startsWith('?') ? search.slice(1) : search
  const forbidden = forbiddenParameter(text)
  if (forbidden !== undefined) {
    const expected = `a parameter name without "${inputBounds.forbiddenKey}"`
    const received = JSON.stringify(forbidden.length > 60 ? `${forbidden.slice(0, 60)}…` : forbidden)
    throw queryError({ path: forbidden, expected, received, message: `${forbidden}: expected ${expected}, received ${received}`, code: 'forbidden_key' })
  }
  let raw: Record<string, unknown>
  try {
    raw = qs.parse(text, QS_OPTIONS) as Record<string, unknown>
  } catch (error) {
    if (error instanceof RangeError) throw queryError(limitIssue(error))
    throw error
  }
  if (!schema) return raw
  const coerced = coerceToSchema(raw, schema)
  return (coerced ?? {}) as Record<string, unknown>
}
