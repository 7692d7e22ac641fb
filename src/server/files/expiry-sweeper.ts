import type { AppServices } from '../env.js'
import { filesStateOf, releaseBlobs } from './state.js'

/** A running sweeper. */
export interface ExpirySweeper {
  /** Runs one pass now: deletes every file whose `expiresAt` has passed (by the app's clock) and its content. */
  sweepNow(): Promise<number>
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>
}

/**
 * Deletes expired files on a timer, without waiting for a request. The clock is the app's `now()`, so a
 * test with a fake clock advances it and the next tick deletes the file. The timer does not keep the process
 * alive.
 *
 * @example
 * ```ts
 * const sweeper = startExpirySweeper(services, 60_000)
 * await sweeper.stop()
 * ```
 */
export function startExpirySweeper(services: AppServices, intervalMs: number): ExpirySweeper {
  let running: Promise<number> | undefined
  let stopped = false
  const sweepNow = (): Promise<number> => {
    running ??= (async () => {
      try {
        const { deleted, unreferencedBlobIds } = filesStateOf(services).files.deleteExpired(services.now())
        await releaseBlobs(services, unreferencedBlobIds)
        if (deleted > 0) services.logger.log('info', 'deleted expired files', { count: deleted })
        return deleted
      } finally {
        running = undefined
      }
    })()
    return running
  }
  const timer = setInterval(() => {
    if (stopped) return
    sweepNow().catch((error: unknown) => services.logger.log('error', 'expiry sweep failed', { error: String(error) }))
  }, intervalMs)
  timer.unref()
  return {
    sweepNow,
    async stop() {
      stopped = true
      clearInterval(timer)
      await running?.catch(() => undefined)
    },
  }
}
