/**
 * `botshelf serve` in a child process of its own for the benches, so the load a bench makes does not share the
 * server's event loop, on a fresh data folder: the first start prints the bot id and its token, which this reads
 * from the banner. It runs what users run, the built command (`npm start`: `dist/bundle/bin.js`, or `dist/cli/bin.js` in
 * a checkout from before the bundle), when the build is newer than
 * every source file; otherwise from source through tsx, which costs more per request (its transform keeps function
 * names, a property definition per closure created), and says so.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A running `botshelf serve` and what a bench needs to call it. */
export interface ServeProcess {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  url: string
  port: number
  botId: string
  token: string
  process: ChildProcess
  /** True when it runs the built command, false when it runs the source through tsx. */
  built: boolean
  /** The folder holding the data folder (removed by `stop` unless it was given in `dataDir`). */
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
  /**
   * A folder of the caller's to hold the data folder (`<dataDir>/data`), kept by `stop`: a bench fills it between
   * two starts, or restarts the server on it. Default: a fresh temporary folder, removed by `stop`.
   *
   * @example
   * ```ts
   * const first = await startServe({ dataDir: '/tmp/growth' }) // prints the bot id and token
   * await first.stop()
   * const again = await startServe({ dataDir: '/tmp/growth' }) // same bot; the token is the first start's
   * ```
   */
  dataDir?: string
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
  const dataDir = options.dataDir ?? (await mkdtemp(join(os.tmpdir(), 'botshelf-bench-serve-')))
  const cwd = options.root ?? root
  const layout = serviceLayout(cwd)
  const built = await isBuildFresh(cwd, layout)
  if (!built) process.stderr.write(`botshelf serve runs from source through tsx in ${cwd}: its dist/ is missing or older than src/ (npm run build)\n`)
  const entry = built ? [layout.built] : ['--import', 'tsx', layout.source]
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, 'serve', '--port', '0', '--data', join(dataDir, 'data'), ...(options.args ?? [])], {
    cwd,
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
      // A restart on a kept data folder prints the bot id but no token (it was shown once, at the first start).
      const match = /listening on (http:\/\/\S+?:(\d+))\s[\s\S]*bot id:\s+(\S+)\s+(?:bot token:\s+(\S+)|tokens:)/.exec(output)
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
    token: banner[4] ?? '',
    built,
    process: child,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The built `botshelf` command of a checkout (since the package split, decision 1301), relative to it, as its `npm
 * start` runs it: the bundle when the checkout builds one (decision 1486), the compiled `bin.js` before.
 *
 * @example
 * ```ts
 * spawn(process.execPath, [join(checkout, builtCommand(checkout)), 'serve'])
 * ```
 */
export function builtCommand(checkout: string): string {
  return existsSync(join(checkout, 'server/scripts/build-cli-bundle.mjs')) ? 'server/dist/bundle/bin.js' : 'server/dist/cli/bin.js'
}

/** Where the CLI of a checkout is: `server/` since the package split (decision 1301), the root before it. */
function serviceLayout(checkout: string): { built: string; source: string; sources: string[] } {
  if (existsSync(join(checkout, 'server/src/cli/bin.ts'))) {
    return { built: builtCommand(checkout), source: 'server/src/cli/bin.ts', sources: ['src', 'server/src'] }
  }
  return { built: 'dist/cli/bin.js', source: 'src/cli/bin.ts', sources: ['src'] }
}

/**
 * Whether the built CLI of a checkout is current. A checkout with build stamps (scripts/build-stamp.mjs) answers
 * by them, as the CLI's own launcher does: an incremental build leaves unchanged outputs with their old times, so
 * the output's time says nothing. An older checkout without stamps: the built CLI newer than every source file.
 */
async function isBuildFresh(checkout: string, layout: ReturnType<typeof serviceLayout>): Promise<boolean> {
  const stamps = join(checkout, 'scripts/build-stamp.mjs')
  if (existsSync(stamps)) {
    const { isUpToDate } = (await import(pathToFileURL(stamps).href)) as { isUpToDate(root: string): boolean }
    return isUpToDate(checkout)
  }
  let builtAt: number
  try {
    builtAt = statSync(join(checkout, layout.built)).mtimeMs
  } catch {
    return false
  }
  const newest = (folder: string): number =>
    readdirSync(folder, { withFileTypes: true }).reduce((latest, entry) => {
      const path = join(folder, entry.name)
      return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
    }, 0)
  return Math.max(...layout.sources.map((folder) => newest(join(checkout, folder)))) < builtAt
}
