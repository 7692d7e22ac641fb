import type { z } from 'zod'

interface LooseDef {
  type: string
  shape?: Record<string, unknown>
  options?: z.ZodType[]
  left?: z.ZodType
  right?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  getter?: () => z.ZodType
}

/**
 * The top-level keys an object schema declares, looking through optional, nullable, default, pipe
 * (transform/refine), union and intersection wrappers. `undefined` when the schema does not declare a
 * fixed set of keys (a record, `any`, ...).
 *
 * @example
 * ```ts
 * schemaKeys(z.object({ id: z.string(), tags: z.record(z.string(), z.string()) })) // Set { 'id', 'tags' }
 * schemaKeys(z.record(z.string(), z.unknown())) // undefined
 * ```
 */
export function schemaKeys(schema: z.ZodType | undefined): Set<string> | undefined {
  if (schema === undefined) return new Set()
  const def = (schema as unknown as { _zod: { def: LooseDef } })._zod.def
  switch (def.type) {
    case 'object':
      return new Set(Object.keys(def.shape ?? {}))
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return schemaKeys(def.innerType)
    case 'pipe':
      return schemaKeys(def.in)
    case 'lazy':
      return def.getter ? schemaKeys(def.getter()) : undefined
    case 'union':
      return unionOf((def.options ?? []).map(schemaKeys))
    case 'intersection':
      return unionOf([schemaKeys(def.left), schemaKeys(def.right)])
    default:
      return undefined
  }
}

function unionOf(sets: Array<Set<string> | undefined>): Set<string> | undefined {
  const all = new Set<string>()
  for (const set of sets) {
    if (set === undefined) return undefined
    for (const key of set) all.add(key)
  }
  return all
}
