import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { readFileSync } from 'node:fs'
import net from 'node:net'

/**
 * What the peer bench asks of a storage service: start and stop on a data folder it keeps between starts, its
 * process's memory, and the Files and Tables measures expressed in each service's own HTTP API (fetch from this
 * process for both, so the load generator is the same).
 */
export interface PeerService {
  /** A short name for the table, e.g. `botshelf` or `Directus 11.3.5`. */
  readonly name: string
  /** Starts the service on its data folder (bootstrapping it on the first start); resolves once it listens. */
  start(): Promise<void>
  /** Resolves once an authenticated request is answered (the "first answer" of a restart). */
  firstAnswer(): Promise<void>
  /** SIGTERM and wait for the exit; the data folder is kept. */
  stop(): Promise<void>
  /** The service process's resident memory, in bytes (`VmRSS`). */
  rss(): number
  /** Uploads `bytes` under `key`; resolves with the id to download it by. */
  upload(key: string, bytes: Uint8Array<ArrayBuffer>): Promise<string>
  /** Downloads a file by the id `upload` gave; resolves with its length. */
  download(id: string): Promise<number>
  /** Lists the first 100 files; resolves with how many came back. */
  listFirst100(): Promise<number>
  /** Creates a table of `{ cat: string, n: number, name: string }` rows. */
  createTable(name: string): Promise<void>
  /** Inserts rows (at most 1000 per call). */
  insertRows(table: string, rows: ReadonlyArray<{ cat: string; n: number; name: string }>): Promise<void>
  /** Rows whose `n` equals the value, 100 at most; resolves with how many came back. */
  findByN(table: string, n: number): Promise<number>
  /** Counts rows per `cat`; resolves with the number of groups. */
  countByCat(table: string): Promise<number>
  /** Counts all rows; resolves with the count. */
  countAll(table: string): Promise<number>
}

/**
 * Throws with the status and the start of the body when an answer is not 2xx.
 *
 * @example
 * ```ts
 * const body = await expectOk(await fetch(url), 'listFiles')
 * ```
 */
export async function expectOk(response: Response, what: string): Promise<unknown> {
  const text = await response.text()
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}: ${text.slice(0, 300)}`)
  return text.length > 0 ? JSON.parse(text) : undefined
}

/**
 * The resident memory of a process, from `/proc/<pid>/status` (Linux), in bytes.
 *
 * @example
 * ```ts
 * const bytes = rssOfPid(child.pid!)
 * ```
 */
export function rssOfPid(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) * 1024 : Number.NaN
}

/**
 * A free TCP port on 127.0.0.1.
 *
 * @example
 * ```ts
 * const port = await freePort()
 * ```
 */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * Polls `check` every 25 ms until it resolves, or fails after `timeoutMs` with the last error.
 *
 * @example
 * ```ts
 * await until(() => service.firstAnswer(), 60_000)
 * ```
 */
export async function until(check: () => Promise<unknown>, timeoutMs: number, describe: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      await check()
      return
    } catch (error) {
      last = error
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${last instanceof Error ? last.message : String(last)}\n${describe()}`)
}

/** A child process whose last 20,000 characters of output are kept, for start-up checks and error messages. */
export interface WatchedChild {
  readonly process: ChildProcess
  output(): string
}

/**
 * Starts a service's process with its output piped and kept, in `running` until it exits (so a failed bench can kill
 * what it started).
 *
 * @example
 * ```ts
 * const watched = spawnWatched(process.execPath, [cli, 'start'], { cwd: dataDir }, running)
 * await until(async () => { if (!/listening/.test(watched.output())) throw new Error('not yet') }, 60_000)
 * ```
 */
export function spawnWatched(command: string, args: readonly string[], options: Omit<SpawnOptions, 'stdio'>, running: Set<ChildProcess>): WatchedChild {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  running.add(child)
  child.once('exit', () => running.delete(child))
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  return { process: child, output: () => output }
}
