/**
 * `botshelf serve` in a child process of its own for the benches, so the load a bench makes does not share the
 * server's event loop. Run from source through tsx on a fresh data folder: the first start prints the bot id and
 * its token, which this reads from the banner.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A running `botshelf serve` and what a bench needs to call it. */
export interface ServeProcess {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string
  port: number
  botId: string
  token: string
  process: ChildProcess
  /** The data folder (removed by `stop`). */
  dataDir: string
  /** The tail of the child's output. */
  output(): string
  /** SIGTERM, wait for the exit, remove the data folder. */
  stop(): Promise<void>
}

/** Options of {@link startServe}. */
export interface StartServeOptions {
  /**
   * More `serve` flags, e.g. `['--rate-limit', 'off']`.
   *
   * @example
   * ```ts
   * await startServe({ args: ['--rate-limit', 'off', '--log-level', 'warn'] })
   * ```
   */
  args?: string[]
  /**
   * Flags for node itself, e.g. `['--cpu-prof', '--cpu-prof-dir=/tmp/prof']`.
   *
   * @example
   * ```ts
   * await startServe({ nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] })
   * ```
   */
  nodeArgs?: string[]
  /**
   * The checkout whose `src/cli/bin.ts` runs (default: this one); a bench passes another checkout to compare the
   * code before a change with the code after it in one run.
   *
   * @example
   * ```ts
   * await startServe({ root: '/path/to/other/checkout' })
   * ```
   */
  root?: string
}

/**
 * Starts `botshelf serve --port 0` on a fresh data folder in a child process; resolves once it listens.
 *
 * @example
 * ```ts
 * const serve = await startServe({ args: ['--rate-limit', 'off'] })
 * await fetch(`${serve.url}/v1/files`, { headers: { authorization: `Bearer ${serve.token}`, 'x-bot-id': serve.botId } })
 * await serve.stop()
 * ```
 */
export async function startServe(options: StartServeOptions = {}): Promise<ServeProcess> {
  const dataDir = await mkdtemp(join(os.tmpdir(), 'botshelf-bench-serve-'))
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/cli/bin.ts', 'serve', '--port', '0', '--data', join(dataDir, 'data'), ...(options.args ?? [])], {
    cwd: options.root ?? root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-50_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const banner = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/\S+?:(\d+))\s[\s\S]*bot id:\s+(\S+)\s+bot token:\s+(\S+)/.exec(output)
      if (match) {
        clearInterval(timer)
        resolve(match)
      } else if (child.exitCode !== null) {
        clearInterval(timer)
        reject(new Error(`botshelf serve exited:\n${output}`))
      }
    }, 20)
  })
  return {
    url: banner[1]!,
    port: Number(banner[2]),
    botId: banner[3]!,
    token: banner[4]!,
    process: child,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
