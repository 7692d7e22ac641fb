/** Latency of sequential calls: a few warm-up calls, then `count` timed ones; p50 and p95 in ms. */
import { performance } from 'node:perf_hooks'

/** p50 and p95 of a measure, in ms, and the number of timed calls. */
export interface Latency {
  p50: number
  p95: number
  count: number
}

/** The `p`th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted: ReadonlyArray<number>, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** p50 / p95 of a list of durations in ms. */
export function summarize(times: ReadonlyArray<number>): Latency {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), count: sorted.length }
}

/**
 * Times `count` calls of `run(i)` one after another, after `warmUp` untimed ones.
 *
 * @example
 * ```ts
 * const { p50, p95 } = await latency(40, (i) => client.listFiles({}))
 * ```
 */
export async function latency(count: number, run: (index: number) => Promise<unknown>, warmUp = 3): Promise<Latency> {
  for (let i = 0; i < warmUp; i++) await run(i)
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const start = performance.now()
    await run(warmUp + i)
    times.push(performance.now() - start)
  }
  return summarize(times)
}
