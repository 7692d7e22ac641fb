import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../server/src/cli/main.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const binSource = fileURLToPath(new URL('../../server/src/cli/bin.ts', import.meta.url))

/** Runs the CLI in process with captured output. */
export async function runCliCaptured(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } })
  return { code, stdout, stderr }
}

/** A `botshelf serve` child process (the real CLI, run from source through tsx). */
export interface ServeProcess {
  child: ChildProcessWithoutNullStreams
  /** Everything written to stderr so far (the banner and messages). */
  stderr(): string
  stdout(): string
  url: string
  botId: string
  /** The bot token, only on the first start. */
  token: string | undefined
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>
}

/**
 * Spawns `botshelf serve --port 0 --data DIR` and waits for its banner: from source through tsx, or the `command`
 * given (the bundled CLI: `[bundledBin]`).
 *
 * @example
 * ```ts
 * const serve = await spawnServe(dataDir)
 * serve.child.kill('SIGTERM'); await serve.exited
 * ```
 */
export async function spawnServe(dataDir: string, extra: string[] = [], command: string[] = ['--import', 'tsx', binSource]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...command, 'serve', '--port', '0', '--data', dataDir, ...extra], {
    cwd: root,
    stdio: 'pipe',
  })
  let err = ''
  let out = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  // Generous: tsx compiles the service on start, which takes over 20 s on a loaded 2-core machine; a healthy start
  // does not wait for it.
  const deadline = Date.now() + 60_000
  while (!/bot id:\s+\S+/.test(err)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`serve exited early:\n${err}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`serve did not start in time:\n${err}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const url = /listening on (\S+)/.exec(err)![1]!
  const botId = /bot id:\s+(\S+)/.exec(err)![1]!
  const token = /bot token:\s+(\S+)/.exec(err)?.[1]
  return { child, stderr: () => err, stdout: () => out, url, botId, token, exited }
}

/** A `botshelf serve` on a folder of its own, and the environment that points client commands at it. */
export interface ServedFolder {
  serve: ServeProcess
  /** The temporary folder: the data in `data/`, a profile folder in `config/`, room for the test's own files. */
  work: string
  /** `BP_API_URL`, `BP_TOKEN`, `BP_BOT_ID` of the server and a `BOTSHELF_CONFIG_DIR` of the folder's own. */
  env: Record<string, string>
  /** Stops the server and removes the folder. */
  stop(): Promise<void>
}

/**
 * Starts `botshelf serve` on a fresh temporary folder for tests of the client-side commands (`files`, `tables`).
 *
 * @example
 * ```ts
 * const served = await serveForClientCommands('botshelf-data-cli-')
 * await runCli(['files', 'ls'], { env: served.env, ... })
 * await served.stop()
 * ```
 */
export async function serveForClientCommands(prefix: string): Promise<ServedFolder> {
  const work = await mkdtemp(join(tmpdir(), prefix))
  const serve = await spawnServe(join(work, 'data'))
  const env = { BP_API_URL: serve.url, BP_TOKEN: serve.token!, BP_BOT_ID: serve.botId, BOTSHELF_CONFIG_DIR: join(work, 'config') }
  return {
    serve,
    work,
    env,
    async stop() {
      serve.child.kill('SIGTERM')
      await serve.exited
      await rm(work, { recursive: true, force: true })
    },
  }
}
