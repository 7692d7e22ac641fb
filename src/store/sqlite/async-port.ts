/**
 * The methods of `T` with the same parameters, each returning a promise of what it returned (a returned promise is
 * not nested). Non-method members are dropped. An overloaded method keeps its last signature only.
 */
export type Promisified<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/**
 * Turns a synchronous store (SQLite) into its async port: each listed method calls `before` first (awaited only when
 * it returns a promise, so a plain call still runs the store in the same tick), then the store method with `this`
 * bound, and returns a promise; a thrown error becomes a rejected promise. Methods not listed are absent at runtime.
 *
 * @example
 * ```ts
 * const jobs: JobQueue = asyncPort(new SqliteJobQueue(db, now), jobQueueMethods, () => assertOpen())
 * await jobs.enqueue({ kind: 'files.expire' })
 * ```
 */
export function asyncPort<T extends object>(
  impl: T,
  methods: ReadonlyArray<keyof T>,
  before?: () => Promise<void> | void,
): Promisified<T> {
  const port: Record<PropertyKey, (...args: unknown[]) => Promise<unknown>> = {}
  for (const name of methods) {
    const method = impl[name]
    if (typeof method !== 'function') throw new TypeError(`asyncPort: ${String(name)} is not a method of the store`)
    port[name] = async (...args: unknown[]) => {
      if (before) {
        const ready = before()
        if (isPromiseLike(ready)) await ready
      }
      return (method as (...args: unknown[]) => unknown).apply(impl, args)
    }
  }
  return port as Promisified<T>
}
