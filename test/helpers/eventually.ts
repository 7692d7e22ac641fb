/**
 * Polls `check` every 25 ms until it returns a value (work that runs in the background), up to `attempts` times
 * (400: 10 s and more); then throws naming `what`. It returns as soon as the value is there: use it instead of a
 * fixed sleep before an assertion.
 *
 * @example
 * ```ts
 * const row = await eventually(async () => ((await client.getTableRow({ table, id })).row.stale ? undefined : true), 'computed')
 * ```
 */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 400): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`never happened: ${what}`)
}
