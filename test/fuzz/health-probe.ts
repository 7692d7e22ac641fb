import { Worker } from 'node:worker_threads'

/** One `GET /health` on a fresh connection, in ms from the start of the probe. */
export interface HealthProbe {
  /** Until the answer's end. */
  ms: number
  /** Until the TCP connection was made (-1: never). */
  connectedMs: number
  /** Until the answer's head arrived (-1: never). */
  firstByteMs: number
  ok: boolean
  /** Wall-clock time of the probe's end (ms since the epoch), to match it with the server's log. */
  at: number
}

/** What the prober saw. */
export interface HealthProbeReport {
  probes: number
  /** Probes that failed (no answer, or not 200). */
  failures: number
  maxMs: number
  /** The 5 slowest probes. */
  slowest: HealthProbe[]
}

/**
 * Starts probing `GET /health` of `url` on a fresh connection every `everyMs`, from a worker thread (its own event
 * loop, so the caller's busy loop does not slow the probes); `stop()` ends it and gives its report.
 *
 * @example
 * ```ts
 * const prober = startHealthProber('http://127.0.0.1:3000', 25)
 * // ... load the server ...
 * const { maxMs } = await prober.stop()
 * ```
 */
export function startHealthProber(url: string, everyMs: number): { stop(): Promise<HealthProbeReport> } {
  // The worker is TypeScript: a two-line bootstrap registers tsx in the worker's thread, then loads it.
  const entry = new URL('./health-prober.ts', import.meta.url).href
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
  const worker = new Worker(bootstrap, { eval: true, workerData: { url, everyMs } })
  const report = new Promise<HealthProbeReport>((resolve, reject) => {
    worker.once('message', (message: HealthProbeReport) => resolve(message))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the /health prober exited (${code}) before its report`)))
  })
  return {
    async stop() {
      worker.postMessage('stop')
      const result = await report
      await worker.terminate()
      return result
    },
  }
}
