/**
 * Bounds on the shape of any input, whatever the operation (docs/decisions/0701-input-bounds.md): how deep JSON
 * may nest (a request body, a JSON value in a query parameter, a value stored in a table row), and the one key
 * no object may have. One place, read by the service's body and query parsing and by the stores.
 *
 * @example
 * ```ts
 * if (depth > inputBounds.jsonDepthMax) throw new Error(`expected at most ${inputBounds.jsonDepthMax} levels of nesting`)
 * ```
 */
export const inputBounds = {
  /**
   * Most levels of nesting of objects and arrays in one JSON document, the outermost one counting as the first
   * (`{"metadata":{"a":1}}` has 2). Far above what real payloads use, far below what recursive code (JSON
   * serialization, validation) can handle.
   */
  jsonDepthMax: 64,
  /**
   * The object key refused everywhere: in JavaScript, `obj["__proto__"] = v` replaces the prototype instead of
   * setting a key, so the name cannot round-trip through clients, validation or merge patches.
   */
  forbiddenKey: '__proto__',
} as const
