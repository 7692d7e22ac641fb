/**
 * The resident memory of another process (the server under bench), sampled from `/proc/<pid>/status` while a
 * measure runs: its peak and its last value, in MB.
 */
import { readFileSync } from 'node:fs'

/** Peak and last RSS of a process over one measure, in MB. */
export interface RssSample {
  peakMb: number
  lastMb: number
}

/** The process's `VmRSS` now, in MB (0 once it has exited). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Samples a process's RSS every `everyMs` while `work` runs.
 *
 * @example
 * ```ts
 * const { result, rss } = await sampleRss(server.process.pid!, () => measureSomething())
 * console.log(rss.peakMb)
 * ```
 */
export async function sampleRss<T>(pid: number, work: () => Promise<T>, everyMs = 50): Promise<{ result: T; rss: RssSample }> {
  let peak = rssMb(pid)
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), everyMs)
  try {
    const result = await work()
    const last = rssMb(pid)
    return { result, rss: { peakMb: Math.max(peak, last), lastMb: last } }
  } finally {
    clearInterval(timer)
  }
}
