/** How {@link guardedPort} treats each call. */
export interface PortGuard {
  /** Runs before each call; throws to refuse it. */
  before(what: string): void
  /** Sees every rejection before the caller does. */
  onError?(error: unknown): void
  /** Turns a rejection into the one the caller gets (default: unchanged). */
  translate?(error: unknown): unknown
  /** Whether a failed call of this method runs once more (a read on a connection that was lost). */
  retryOnce?(method: string, error: unknown): boolean
}

/**
 * Wraps the listed methods of a port: `guard.before` runs first (it may throw to refuse the call), then the
 * method with `this` bound; a read may run once more after a lost connection (`retryOnce`); a rejection is shown
 * to `onError` before it reaches the caller. Methods not listed are absent.
 *
 * @example
 * ```ts
 * const files = guardedPort(new PgFilesPort(scope, now), portMethods.files, 'backend.files', { before: (what) => assertOpen(what) })
 * ```
 */
export function guardedPort<T extends object>(impl: T, methods: ReadonlyArray<keyof T>, name: string, guard: PortGuard): T {
  const port: Record<PropertyKey, (...args: unknown[]) => Promise<unknown>> = {}
  for (const key of methods) {
    const method = impl[key]
    if (typeof method !== 'function') throw new TypeError(`guardedPort: ${String(key)} is not a method of the port`)
    const call = (args: unknown[]) => (method as (...args: unknown[]) => Promise<unknown>).apply(impl, args)
    port[key] = async (...args: unknown[]) => {
      guard.before(`${name}.${String(key)}`)
      try {
        try {
          return await call(args)
        } catch (error) {
          if (!guard.retryOnce?.(String(key), error)) throw error
          return await call(args)
        }
      } catch (error) {
        guard.onError?.(error)
        throw guard.translate ? guard.translate(error) : error
      }
    }
  }
  return port as T
}
