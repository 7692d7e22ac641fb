import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../src/cli/main.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const binSource = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url))

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
 * Spawns `botshelf serve --port 0 --data DIR` and waits for its banner.
 *
 * @example
 * ```ts
 * const serve = await spawnServe(dataDir)
 * serve.child.kill('SIGTERM'); await serve.exited
 * ```
 */
export async function spawnServe(dataDir: string, extra: string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', binSource, 'serve', '--port', '0', '--data', dataDir, ...extra], {
    cwd: root,
    stdio: 'pipe',
  })
  let err = ''
  let out = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  const deadline = Date.now() + 20_000
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
