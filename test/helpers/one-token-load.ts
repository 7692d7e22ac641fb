import type { Client as BotpressClient } from '@botpress/client'

/** What {@link runOneTokenLoad} saw. */
export interface OneTokenLoadResult {
  /** Calls answered successfully. */
  readonly succeeded: number
  /** Calls refused with 429 `RateLimited`. */
  readonly rateLimited: number
  /** Other failures, by `type` (or the error's message when it has no wire type). */
  readonly otherFailures: Record<string, number>
  /** Every file whose upload was acknowledged: its id, key and content. */
  readonly acknowledged: ReadonlyArray<{ id: string; key: string; content: string }>
}

/** Options of {@link runOneTokenLoad}. */
export interface OneTokenLoadOptions {
  /** Concurrent client loops. */
  readonly clients: number
  /** A loop stops after this many rounds (each: upload a file, read it, list a page). */
  readonly rounds?: number
  /** Or at this time (`performance.now()` milliseconds), whichever comes first; for the 30-second bench. */
  readonly until?: number
  /** Upload a new file every round (default), or only in the first one and read it in the others. */
  readonly uploadEveryRound?: boolean
}

/**
 * Drives one bot token from many concurrent `@botpress/client` loops, each with its own client and the client's
 * default settings (no retry on 429): upload a file (every round, or the first only), get it, list a page, round
 * after round. Counts 429s apart
 * from other failures and returns every acknowledged upload so the caller can read them back.
 *
 * @example
 * ```ts
 * const result = await runOneTokenLoad(() => service.botpressClient(), { clients: 200, rounds: 3 })
 * expect(result.rateLimited).toBe(0)
 * ```
 */
export async function runOneTokenLoad(makeClient: () => BotpressClient, options: OneTokenLoadOptions): Promise<OneTokenLoadResult> {
  let succeeded = 0
  let rateLimited = 0
  const otherFailures: Record<string, number> = {}
  const acknowledged: Array<{ id: string; key: string; content: string }> = []
  const call = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
    try {
      const value = await run()
      succeeded++
      return value
    } catch (error) {
      const type = (error as { type?: string }).type
      if (type === 'RateLimited' || (error as { code?: number }).code === 429) rateLimited++
      else {
        const name = type ?? String((error as Error).message)
        otherFailures[name] = (otherFailures[name] ?? 0) + 1
      }
      return undefined
    }
  }
  const loop = async (index: number): Promise<void> => {
    const client = makeClient()
    let last: string | undefined
    for (let round = 0; options.rounds === undefined || round < options.rounds; round++) {
      if (options.until !== undefined && performance.now() >= options.until) return
      if (round === 0 || options.uploadEveryRound !== false) {
        const key = `load/${index}/${round}.txt`
        const content = `client ${index} round ${round}`
        const uploaded = await call(() => client.uploadFile({ key, content }))
        if (uploaded) {
          acknowledged.push({ id: uploaded.file.id, key, content })
          last = uploaded.file.id
        }
      }
      if (last !== undefined) await call(() => client.getFile({ id: last! }))
      await call(() => client.listFiles({}))
    }
  }
  await Promise.all(Array.from({ length: options.clients }, (_, index) => loop(index)))
  return { succeeded, rateLimited, otherFailures, acknowledged }
}
