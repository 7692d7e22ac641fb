import type { CodeSandboxFactory } from './code-computation.js'

/**
 * How the tables feature computes columns.
 *
 * @example
 * ```ts
 * createTablesFeature({ compute: { concurrency: 8, sweepIntervalMs: 5_000 } })
 * ```
 */
export interface ComputeOptions {
  /** Computations in flight per table (default 4): a table's job never asks more of the model at once. */
  concurrency?: number
  /** How long a claimed cell stays a worker's before another may take it over (default 120 000 ms). */
  cellLeaseMs?: number
  /** How often a sweep queues the computation of tables with due cells: after restarts and outages (default 10 000 ms). */
  sweepIntervalMs?: number
  /** How long `waitComputed: true` waits for the rows written before answering with what is done (default 30 000 ms). */
  waitComputedMs?: number
  /** Time limit of one code computation (default 1000 ms). */
  codeTimeLimitMs?: number
  /** Memory limit of one code computation (default 64 MB). */
  codeMemoryLimitBytes?: number
  /**
   * How long a workflow cell waits for the bot's answer after its `table.row.compute` event (decision 1424) before
   * the event is emitted again (default 600 000 ms). The delivery's own retries cover an unreachable bot.
   * @example `workflowAnswerMs: 60_000`
   */
  workflowAnswerMs?: number
  /** The code sandbox (default `createCodeSandbox` of `./sandbox/`, started on the first code computation; `null`: none, code columns fail saying so). */
  sandbox?: CodeSandboxFactory | null
}

/** The options with their defaults filled in. */
export type ResolvedComputeOptions = Required<Omit<ComputeOptions, 'sandbox'>> & Pick<ComputeOptions, 'sandbox'>

/**
 * The compute options with their defaults.
 *
 * @example
 * ```ts
 * resolveComputeOptions({ concurrency: 8 }).cellLeaseMs // 120000
 * ```
 */
export function resolveComputeOptions(options: ComputeOptions = {}): ResolvedComputeOptions {
  const positive = (name: keyof ComputeOptions, value: number) => {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`compute.${name}: expected a positive number, received ${value}`)
    return value
  }
  return {
    concurrency: positive('concurrency', options.concurrency ?? 4),
    cellLeaseMs: positive('cellLeaseMs', options.cellLeaseMs ?? 120_000),
    sweepIntervalMs: positive('sweepIntervalMs', options.sweepIntervalMs ?? 10_000),
    waitComputedMs: positive('waitComputedMs', options.waitComputedMs ?? 30_000),
    codeTimeLimitMs: positive('codeTimeLimitMs', options.codeTimeLimitMs ?? 1_000),
    codeMemoryLimitBytes: positive('codeMemoryLimitBytes', options.codeMemoryLimitBytes ?? 64 * 1024 * 1024),
    workflowAnswerMs: positive('workflowAnswerMs', options.workflowAnswerMs ?? 600_000),
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
  }
}
