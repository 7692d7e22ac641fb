/** Latency percentiles of one operation, in milliseconds. */
export interface Latency {
  p50: number
  p95: number
}

/** One comparison: the operation through botshelf's ports and the bare SQL doing the same, measured side by side. */
export interface Comparison {
  port: Latency
  raw: Latency
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!
}

function latencyOf(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) }
}

/**
 * Runs `port(i)` and `raw(i)` `samples` times each, interleaved (which goes first alternates), after a few
 * warm-up rounds, so that both see the same moments of a noisy machine; returns their p50 and p95.
 *
 * @example
 * ```ts
 * const { port, raw } = await compare(200, (i) => backend.files.getById(botId, ids[i]), (i) => engine.rawGetFile(botId, ids[i]))
 * ```
 */
export async function compare(samples: number, port: (i: number) => Promise<unknown>, raw: (i: number) => Promise<unknown>, warmup = 5): Promise<Comparison> {
  for (let i = 0; i < warmup; i++) {
    await port(samples + i)
    await raw(samples + i)
  }
  const portTimes: number[] = []
  const rawTimes: number[] = []
  const timed = async (run: (i: number) => Promise<unknown>, i: number, into: number[]) => {
    const started = performance.now()
    await run(i)
    into.push(performance.now() - started)
  }
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      await timed(port, i, portTimes)
      await timed(raw, i, rawTimes)
    } else {
      await timed(raw, i, rawTimes)
      await timed(port, i, portTimes)
    }
  }
  return { port: latencyOf(portTimes), raw: latencyOf(rawTimes) }
}

/**
 * A deterministic pseudo-random sequence (so that every run and both engines ask for the same things).
 *
 * @example
 * ```ts
 * const random = seeded(42); random() // 0.0000...
 * ```
 */
export function seeded(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
}
