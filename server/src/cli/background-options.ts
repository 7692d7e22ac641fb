import { UsageError } from './io.js'

/** A setting of `botshelf serve` in seconds: its flag, its variable and its bounds. */
interface SecondsSetting {
  flag: string
  variable: string
  minSeconds: number
  maxSeconds: number
}

/** `--job-lease` / `BOTSHELF_JOB_LEASE`: 0.5 to 3600 s. */
export const JOB_LEASE_SETTING = { flag: 'job-lease', variable: 'BOTSHELF_JOB_LEASE', minSeconds: 0.5, maxSeconds: 3600 } as const

/** `--expiry-sweep` / `BOTSHELF_EXPIRY_SWEEP`: 1 to 86400 s. */
export const EXPIRY_SWEEP_SETTING = { flag: 'expiry-sweep', variable: 'BOTSHELF_EXPIRY_SWEEP', minSeconds: 1, maxSeconds: 86_400 } as const

/**
 * Reads a setting in seconds: its flag, else its variable, else `undefined` (the default applies). Decimals
 * allowed; returned in milliseconds. A value that is not a number in bounds is a `UsageError` naming where it
 * came from.
 *
 * @example
 * ```ts
 * parseSecondsSetting(JOB_LEASE_SETTING, { 'job-lease': '5' }, {}) // 5000
 * parseSecondsSetting(JOB_LEASE_SETTING, {}, { BOTSHELF_JOB_LEASE: '2.5' }) // 2500
 * ```
 */
export function parseSecondsSetting(
  setting: SecondsSetting,
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): number | undefined {
  const flag = values[setting.flag] as string | undefined
  const [value, name] = flag !== undefined ? [flag, `--${setting.flag}`] : [env[setting.variable], setting.variable]
  if (value === undefined || (flag === undefined && value.trim() === '')) return undefined
  const seconds = Number(value)
  const { minSeconds, maxSeconds } = setting
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !Number.isFinite(seconds) || seconds < minSeconds || seconds > maxSeconds) {
    throw new UsageError(`${name} must be a number of seconds from ${minSeconds} to ${maxSeconds} (like ${maxSeconds > 3600 ? 60 : 30} or 2.5), received ${JSON.stringify(value)}`)
  }
  return Math.round(seconds * 1000)
}

/**
 * The background-job settings of `botshelf serve`:
 * - `jobLeaseMs`: `--job-lease <s>` / `BOTSHELF_JOB_LEASE` (default 30 s), how long a job claimed by a server
 *   stays its own without a renewal. A server renews it every third of it while the job runs; when a server dies
 *   (SIGKILL, a lost machine) another takes its jobs over once the lease has run out. Shorter: faster take-overs,
 *   more renewal writes.
 * - `expirySweepIntervalMs`: `--expiry-sweep <s>` / `BOTSHELF_EXPIRY_SWEEP` (default 60 s), how often expired
 *   files are deleted (reads hide them at once). Servers sharing a database run one pass per interval between them.
 *
 * @example
 * ```ts
 * backgroundOptions({ 'job-lease': '5' }, { BOTSHELF_EXPIRY_SWEEP: '10' }) // { jobLeaseMs: 5000, expirySweepIntervalMs: 10000 }
 * backgroundOptions({}, {}) // {}
 * ```
 */
export function backgroundOptions(
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): { jobLeaseMs?: number; expirySweepIntervalMs?: number } {
  const jobLeaseMs = parseSecondsSetting(JOB_LEASE_SETTING, values, env)
  const expirySweepIntervalMs = parseSecondsSetting(EXPIRY_SWEEP_SETTING, values, env)
  return { ...(jobLeaseMs !== undefined ? { jobLeaseMs } : {}), ...(expirySweepIntervalMs !== undefined ? { expirySweepIntervalMs } : {}) }
}
