import qs from 'qs'
import type { z } from 'zod'

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
 * them with their real received value.
 *
 * @example
 * ```ts
 * coerceToSchema('a', z.array(z.string())) // ['a']
 * coerceToSchema('20', z.number().optional()) // 20
 * ```
 */
export function coerceToSchema(value: unknown, schema: unknown): unknown {
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
      return Array.isArray(items) ? items.map((item) => coerceToSchema(item, def.element)) : items
    }
    case 'object': {
      const parsed = typeof value === 'string' && looksLikeJsonObject(value) ? tryJson(value) : value
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed
      const shape = (def.shape ?? {}) as Record<string, unknown>
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(parsed)) out[key] = key in shape ? coerceToSchema(item, shape[key]) : item
      return out
    }
    case 'record': {
      const parsed = typeof value === 'string' && looksLikeJsonObject(value) ? tryJson(value) : value
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(parsed)) out[key] = coerceToSchema(item, def.valueType)
      return out
    }
    case 'union': {
      const options = (def.options ?? []) as unknown[]
      if (typeof value === 'string' && looksLikeJsonObject(value) && options.some((o) => ['object', 'record'].includes(kindOf(o)))) {
        const parsed = tryJson(value)
        const target = options.find((o) => ['object', 'record'].includes(kindOf(o)))
        return coerceToSchema(parsed, target)
      }
      if (Array.isArray(value)) {
        const target = options.find((o) => kindOf(o) === 'array')
        return target ? coerceToSchema(value, target) : value
      }
      if (typeof value === 'string') {
        if (options.some((o) => kindOf(o) === 'string' || kindOf(o) === 'enum' || kindOf(o) === 'literal')) return value
        const scalar = options.find((o) => ['boolean', 'number', 'int'].includes(kindOf(o)))
        if (scalar) return coerceScalar(value, kindOf(scalar))
        const array = options.find((o) => kindOf(o) === 'array')
        if (array) return coerceToSchema(value, array)
        return value
      }
      if (value !== null && typeof value === 'object') {
        const target = options.find((o) => ['object', 'record'].includes(kindOf(o)))
        return target ? coerceToSchema(value, target) : value
      }
      return value
    }
    case 'any':
    case 'unknown':
      return typeof value === 'string' && looksLikeJsonObject(value) ? (tryJson(value) ?? value) : value
    default:
      return value
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * Parses a query string the way `@botpress/client` writes it (`qs`, dot notation, repeated keys), then
 * coerces it towards the operation's query schema (see `coerceToSchema`). Validation is left to the caller.
 *
 * @example
 * ```ts
 * parseQuery('?ids=a&indexed=true&tags.k=v&tags.k=w', listFilesQuerySchema)
 * // { ids: ['a'], indexed: true, tags: { k: ['v', 'w'] } }
 * ```
 */
export function parseQuery(search: string, schema?: z.ZodType): Record<string, unknown> {
  const raw = qs.parse(search.startsWith('?') ? search.slice(1) : search, {
    allowDots: true,
    depth: 10,
    arrayLimit: 1000,
    parameterLimit: 2000,
  }) as Record<string, unknown>
  if (!schema) return raw
  const coerced = coerceToSchema(raw, schema)
  return (coerced ?? {}) as Record<string, unknown>
}
