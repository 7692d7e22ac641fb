/**
 * A bench's helper process (a baseline server, a load generator, a prober): spawned with node, its output kept, and
 * stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process'

/** A running helper process. */
export interface BenchChild {
  process: ChildProcess
  /** Everything it wrote to stdout so far. */
  stdout(): string
  /** Resolves with the first match of `pattern` in its stdout (rejects if it exits first). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>
  /** Resolves when it exits on its own. */
  exited(): Promise<number | null>
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>
}

/**
 * Spawns `node <args>` from the repository root with its stderr passed through.
 *
 * @example
 * ```ts
 * const hono = startChild(['bench/baselines/bare-hono.mjs', key, json])
 * const port = (await hono.waitFor(/listening (\d+)/))[1]
 * await hono.stop()
 * ```
 */
export function startChild(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): BenchChild {
  const child = spawn(process.execPath, args, { cwd: options.cwd ?? new URL('../../', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'inherit'], env: options.env ?? process.env })
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    process: child,
    stdout: () => out,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const match = pattern.exec(out)
          if (match) resolve(match)
          return match !== null
        }
        if (check()) return
        const onData = (): void => {
          if (check()) child.stdout!.off('data', onData)
        }
        child.stdout!.on('data', onData)
        void exit.then((code) => reject(new Error(`${args.join(' ')} exited with ${String(code)} before printing ${pattern}:\n${out}`)))
      }),
    exited: () => exit,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await exit
      }
    },
  }
}
