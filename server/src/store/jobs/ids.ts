import { newUlid } from '../ulid.js'

/**
 * A job id: `job_` + ULID.
 *
 * @example
 * ```ts
 * newJobId(new Date()) // 'job_01K86HD0D5T3HFCGBEKQJFNKAD'
 * ```
 */
export function newJobId(now: Date): string {
  return `job_${newUlid(now)}`
}
