/**
 * Rate-limits progress writes: a job reports after every batch, but the store is written at most every
 * `intervalMs` (and always for the final value), so progress moves without a write per thousand rows.
 *
 * @example
 * ```ts
 * const progress = throttledProgress((value) => tables.updateJob(jobId, { progress: value }), 250)
 * await progress.report(0.4)
 * ```
 */
export function throttledProgress(write: (value: number) => Promise<unknown>, intervalMs = 250): { report(value: number, force?: boolean): Promise<void> } {
  let last = 0
  return {
    async report(value, force = false) {
      const now = Date.now()
      if (!force && now - last < intervalMs) return
      last = now
      await write(Math.max(0, Math.min(1, value)))
    },
  }
}
