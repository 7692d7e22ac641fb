import { fork, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A running S3-compatible test server (s3rver in a child process) on a free port of 127.0.0.1, storing in a
 * temporary folder. It accepts any SigV4 signature from the access key below (it verifies none), so tests of
 * the signing itself capture requests instead.
 */
export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: pass as `endpoint` with `forcePathStyle: true`. */
  endpoint: string
  port: number
  /** The folder s3rver stores in (objects, and pending multipart uploads under `<bucket>/._S3rver_uploads/`). */
  directory: string
  /** The only access key s3rver knows; any other is refused with InvalidAccessKeyId. */
  accessKeyId: string
  secretAccessKey: string
  region: string
  /** Creates a bucket (idempotent). */
  createBucket(name: string): Promise<void>
  /** Stops the child process and deletes its folder. */
  stop(): Promise<void>
}

/**
 * The environment an operator sets for botshelf to reach this server (`BOTSHELF_S3_*` and the `AWS_*` credentials),
 * for CLI commands and `botshelf serve` children started by a test.
 *
 * @example
 * ```ts
 * Object.assign(process.env, s3Environment(s3))
 * ```
 */
export function s3Environment(server: S3TestServer): Record<string, string> {
  return {
    BOTSHELF_S3_ENDPOINT: server.endpoint,
    BOTSHELF_S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_REGION: server.region,
  }
}

const childScript = fileURLToPath(new URL('./s3-server-child.mjs', import.meta.url))

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = ''
    let errors = ''
    const onExit = (code: number | null): void => reject(new Error(`the S3 test server exited (${code}) before listening: ${errors.trim()}`))
    child.stderr?.on('data', (data: Buffer) => (errors += data.toString()))
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString()
      const line = output.split('\n')[0]
      if (!output.includes('\n') || line === undefined) return
      child.off('exit', onExit)
      try {
        resolve((JSON.parse(line) as { port: number }).port)
      } catch {
        reject(new Error(`the S3 test server printed ${JSON.stringify(line)} instead of its port`))
      }
    })
    child.once('exit', onExit)
    child.once('error', reject)
  })
}

/**
 * Starts s3rver in a child process (`node --openssl-legacy-provider`, which its DES continuation tokens need
 * on OpenSSL 3) on a free port with a temporary folder, creates `buckets`, and returns how to reach it. Works
 * per test file (`beforeAll`/`afterAll`) and from a vitest `globalSetup` (pass `endpoint` on with `provide`).
 *
 * @example
 * ```ts
 * let s3: S3TestServer
 * beforeAll(async () => { s3 = await startS3TestServer({ buckets: ['content'] }) })
 * afterAll(() => s3.stop())
 * ```
 */
export async function startS3TestServer(options: { buckets?: string[] } = {}): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'botshelf-s3-'))
  const child = fork(childScript, [directory, ...(options.buckets ?? [])], {
    execArgv: ['--openssl-legacy-provider'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  let port: number
  try {
    port = await waitForPort(child)
  } catch (error) {
    child.kill('SIGKILL')
    await rm(directory, { recursive: true, force: true })
    throw error
  }
  const endpoint = `http://127.0.0.1:${port}`
  let stopped: Promise<void> | undefined
  return {
    endpoint,
    port,
    directory,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
    async createBucket(name) {
      const response = await fetch(`${endpoint}/${encodeURIComponent(name)}`, { method: 'PUT' })
      if (!response.ok && response.status !== 409) throw new Error(`creating bucket ${name}: ${response.status} ${await response.text()}`)
    },
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve))
          child.kill('SIGTERM')
          await exited
        }
        await rm(directory, { recursive: true, force: true })
      })()
      return stopped
    },
  }
}
