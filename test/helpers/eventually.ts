/**
 * Polls `check` every 25 ms until it returns a value (work that runs in the background), up to 400 times; then
 * throws naming `what`.
 *
 * @example
 * ```ts
 * const row = await eventually(async () => ((await client.getTableRow({ table, id })).row.stale ? undefined : true), 'computed')
 * ```
 */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`never happened: ${what}`)
}
