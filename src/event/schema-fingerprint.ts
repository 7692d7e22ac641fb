import { z } from 'zod'

/**
 * A stable text for a schema's shape (its JSON Schema), so that defining a type again with an equal schema made by
 * another copy of zod objects (vitest's `resetModules` re-runs the definition) is recognised as the same
 * definition. `undefined` when the schema cannot be written as JSON Schema: then only the same object counts.
 *
 * @example
 * ```ts
 * schemaFingerprint(z.object({ a: z.string() })) === schemaFingerprint(z.object({ a: z.string() })) // true
 * ```
 */
export function schemaFingerprint(schema: z.ZodType): string | undefined {
  try {
    return JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }))
  } catch {
    return undefined
  }
}
