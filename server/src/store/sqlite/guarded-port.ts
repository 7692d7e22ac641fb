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
 * What {@link asyncPort} does after a method that may write (decision 1210): await `durable()` before answering,
 * unless the method is one of `readOnly` and the connection's change counter did not move during it. A method left
 * out of `readOnly` is treated as a write (the safe default: DDL, which the counter does not see, is only there).
 */
export interface AsyncPortWrites<T> {
  /**
   * Methods that never write (no fsync wait after them).
   *
   * @example
   * ```ts
   * asyncPort(files, filesMethods, idle, { readOnly: ['getById', 'list'], durable: () => walSync.durable(), changes })
   * ```
   */
  readOnly: ReadonlyArray<keyof T>
  /**
   * Resolves once every commit so far is on the disk.
   *
   * @example
   * ```ts
   * asyncPort(files, filesMethods, idle, { readOnly: [], durable: () => walSync.durable(), changes })
   * ```
   */
  durable: () => Promise<void>
  /**
   * The connection's count of changed rows so far (SQLite `total_changes()`).
   *
   * @example
   * ```ts
   * const totalChanges = db.prepare('SELECT total_changes()').pluck()
   * asyncPort(files, filesMethods, idle, { readOnly: ['list'], durable, changes: () => totalChanges.get() as number })
   * ```
   */
  changes: () => number
  /**
   * Writes that answer once committed, without waiting for `durable()` (decision 1459): the steps of a background
   * job whose outcome is acknowledged by a later write. One log holds every commit, so that later write's flush
   * makes them durable too; a crash before it loses whole steps at most, and the job resumes from what survived.
   *
   * @example
   * ```ts
   * asyncPort(tables, tablesMethods, idle, { readOnly: ['getJob'], writeBehind: ['publishImportRows'], durable, changes })
   * ```
   */
  writeBehind?: ReadonlyArray<keyof T>
  /**
   * Called after each method that wrote, once its commit is made (before the durability wait): the log's
   * checkpointer looks at the log's length then (decision 1483).
   *
   * @example
   * ```ts
   * asyncPort(files, filesMethods, idle, { readOnly: ['list'], durable, changes, written: () => checkpointer.afterWrite() })
   * ```
   */
  written?: () => void
}

/**
 * Turns a synchronous store (SQLite) into its async port: each listed method calls `before` first (awaited only when
 * it returns a promise, so a plain call still runs the store in the same tick), then the store method with `this`
 * bound, and returns a promise; a thrown error becomes a rejected promise. Methods not listed are absent at runtime.
 * With `writes`, a method not named read-only answers only once its commits are durable.
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
  writes?: AsyncPortWrites<T>,
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
      if (!writes) return (method as (...args: unknown[]) => unknown).apply(impl, args)
      if (writes.writeBehind?.includes(name)) {
        try {
          return (method as (...args: unknown[]) => unknown).apply(impl, args)
        } finally {
          writes.written?.()
        }
      }
      if (writes.readOnly.includes(name)) {
        const changesBefore = writes.changes()
        const result = (method as (...args: unknown[]) => unknown).apply(impl, args)
        // A method named read-only that changed rows all the same is made durable too.
        if (writes.changes() !== changesBefore) {
          writes.written?.()
          await writes.durable()
        }
        return result
      }
      try {
        return (method as (...args: unknown[]) => unknown).apply(impl, args)
      } finally {
        // Also after a failure: statements that committed before it are made durable too.
        writes.written?.()
        await writes.durable()
      }
    }
  }
  return port as Promisified<T>
}
