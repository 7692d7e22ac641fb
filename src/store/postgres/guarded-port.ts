/**
 * Wraps the listed methods of a port: `before` runs first (it may throw to refuse the call), then the method with
 * `this` bound; a rejection is shown to `onError` before it reaches the caller. Methods not listed are absent.
 *
 * @example
 * ```ts
 * const files = guardedPort(new PgFilesPort(scope, now), filesMethods, () => assertOpen())
 * ```
 */
export function guardedPort<T extends object>(
  impl: T,
  methods: ReadonlyArray<keyof T>,
  before: () => void,
  onError?: (error: unknown) => void,
): T {
  const port: Record<PropertyKey, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of methods) {
    const method = impl[name]
    if (typeof method !== 'function') throw new TypeError(`guardedPort: ${String(name)} is not a method of the port`)
    port[name] = async (...args: unknown[]) => {
      before()
      try {
        return await (method as (...args: unknown[]) => Promise<unknown>).apply(impl, args)
      } catch (error) {
        onError?.(error)
        throw error
      }
    }
  }
  return port as T
}
