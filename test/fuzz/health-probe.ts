import { Worker } from 'node:worker_threads'

/** The header the prober's requests carry, so the fuzz server times them and not the fuzzer's own `/health`s. */
export const HEALTH_PROBE_HEADER = 'x-fuzz-health-probe'

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

/** A `GET /health` prober running in a worker thread. */
export interface HealthProber {
  /** The probes since the last report (or the start), and starts counting again. */
  report(): Promise<HealthProbeReport>
  /** Ends the prober and gives its last report. */
  stop(): Promise<HealthProbeReport>
}

/**
 * Starts probing `GET /health` of `url` on a fresh connection every `everyMs`, from a worker thread (its own event
 * loop, so the caller's busy loop does not slow the probes). A thread inherits the CPU priority of the thread that
 * starts it: start the prober before lowering the caller's (as `npm run fuzz` does).
 *
 * @example
 * ```ts
 * const prober = startHealthProber('http://127.0.0.1:3000', 25)
 * // ... load the server ...
 * const { maxMs } = await prober.stop()
 * ```
 */
export function startHealthProber(url: string, everyMs: number): HealthProber {
  // The worker is TypeScript: a two-line bootstrap registers tsx in the worker's thread, then loads it.
  const entry = new URL('./health-prober.ts', import.meta.url).href
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}) })`
  const worker = new Worker(bootstrap, { eval: true, workerData: { url, everyMs } })
  let failure: Error | undefined
  worker.once('error', (error) => (failure = error))
  const next = (message: 'report' | 'stop'): Promise<HealthProbeReport> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure)
      const onExit = (code: number): void => reject(failure ?? new Error(`the /health prober exited (${code}) before its report`))
      worker.once('exit', onExit)
      worker.once('message', (report: HealthProbeReport) => {
        worker.off('exit', onExit)
        resolve(report)
      })
      worker.postMessage(message)
    })
  return {
    report: () => next('report'),
    async stop() {
      const last = await next('stop')
      await worker.terminate()
      return last
    },
  }
}
