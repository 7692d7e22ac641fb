/**
 * CPU time of a process from /proc (Linux). On a shared machine the CPU a server spends per request or per file moves
 * far less than its rate, which follows the CPU its neighbours leave it.
 */
import { readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100

/**
 * CPU seconds (user + system) the process has used so far; `undefined` without a pid or off Linux.
 *
 * @example
 * ```ts
 * const before = cpuSeconds(child.pid)
 * await load()
 * const spent = cpuSeconds(child.pid)! - before!
 * ```
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    // The command name may hold spaces and parentheses: the fields start after its last ") ".
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return undefined
  }
}
