import { spawn } from 'node:child_process'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/index.js'
import { runCli } from '../../server/src/cli/main.js'
import { serveForClientCommands, type ServedFolder, type ServeProcess } from '../helpers/cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const binSource = fileURLToPath(new URL('../../server/src/cli/bin.ts', import.meta.url))

let serve: ServeProcess
let work: string
let env: Record<string, string>

let served: ServedFolder | undefined

beforeAll(async () => {
  served = await serveForClientCommands('botshelf-progress-')
  ;({ serve, work, env } = served)
}, 30_000)

afterAll(() => served?.stop())

async function folderOf(name: string, count: number, bytes: number): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  for (let i = 0; i < count; i++) await writeFile(join(dir, `part-${String(i).padStart(3, '0')}.bin`), randomBytes(bytes))
  return dir
}

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Runs the real CLI under a pseudo-terminal (`script`), returning what the terminal received. */
function runOnTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const quoted = [process.execPath, '--import', 'tsx', binSource, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qfec', quoted, '/dev/null'], { cwd: root, env: { ...process.env, ...env, COLUMNS: '120', TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })))
}

describe('progress output', () => {
  it('draws a bar with percentage, bytes, rate and ETA on a terminal, redrawn in place', async () => {
    // `script` from util-linux gives the command a pseudo-terminal (it is part of Debian's base system).
    expect(hasScript(), 'the script command (util-linux) is needed for this test').toBe(true)
    const dir = await folderOf('tty', 12, 300_000)
    const { code, output } = await runOnTerminal(['files', 'put', dir, '--prefix', 'tty/'])
    expect(code, output).toBe(0)
    expect(output).toContain('\u2588') // the bar's filled part
    expect(output).toMatch(/put \u2588*\u2591* ?\d+% \| [\d.]+ (kB|MB)\/3\.6 MB \(\d+\/12 files\) \| [\d.]+ (B|kB|MB)\/s \| ETA \S+/)
    expect(output).toMatch(/\r|\x1b\[/) // redrawn in place (carriage return or cursor movement)
    expect(output).toContain('put: uploaded 12 of 12 files (3.6 MB)')
    // No plain progress lines on a terminal.
    expect(output).not.toMatch(/^put: \d+% /m)
  }, 60_000)

  it('prints plain lines (no escape codes) when standard error is not a terminal', async () => {
    const dir = await folderOf('plain', 10, 10_000)
    let stderr = ''
    const code = await runCli(['files', 'put', dir, '--prefix', 'plain/'], { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env })
    expect(code).toBe(0)
    const lines = stderr.trim().split('\n')
    expect(lines.at(-1)).toBe('put: uploaded 10 of 10 files (100.0 kB)')
    const progressLines = lines.slice(0, -1)
    expect(progressLines.length).toBeGreaterThanOrEqual(5)
    for (const line of progressLines) expect(line).toMatch(/^put: \d+% [\d.]+ (B|kB)\/100\.0 kB( \(\d+\/10 files\))?, [\d.]+ (B|kB|MB)\/s, ETA \S+$/)
    expect(stderr).not.toMatch(/\x1b\[|\r/)
  })
})

describe('Ctrl-C', () => {
  /** Runs a command in process and sends it SIGINT when it writes its first progress line. */
  async function interruptAtFirstProgress(argv: string[]): Promise<{ code: number; stderr: string }> {
    let stderr = ''
    let sent = false
    const code = await runCli(argv, {
      stdout: { write: () => true },
      stderr: {
        write: (text: string) => {
          stderr += text
          if (!sent && /: \d+% /.test(text)) {
            sent = true
            process.emit('SIGINT', 'SIGINT')
          }
        },
      },
      env,
    })
    return { code, stderr }
  }

  it('an interrupted download leaves no file, complete or partial, and exits 130', async () => {
    const client = new Client({ apiUrl: serve.url, token: serve.token!, botId: serve.botId })
    await client.uploadFile({ key: 'big/large.bin', content: randomBytes(24_000_000) })
    const destination = join(work, 'interrupted-get')
    await mkdir(destination)
    const { code, stderr } = await interruptAtFirstProgress(['files', 'get', 'big/large.bin', join(destination, 'large.bin')])
    expect(stderr).toContain('interrupted')
    expect(code).toBe(130)
    expect(await readdir(destination)).toEqual([])
  }, 60_000)

  it('an interrupted folder upload keeps only complete files, says how many, settles the uploads in flight and prints no progress after (issue 27, item 1)', async () => {
    const dir = await folderOf('interrupted-put', 40, 500_000)
    const { code, stderr } = await interruptAtFirstProgress(['files', 'put', dir, '--prefix', 'cut/', '--parallel', '2'])
    expect(code).toBe(130)
    const summary = /put: interrupted after (\d+) of 40 files; those are complete[^\n]*\n/.exec(stderr)
    expect(summary).not.toBeNull()
    const done = Number(summary![1])
    expect(done).toBeLessThan(40)
    // The summary is the last thing written: no progress line after it.
    expect(stderr.endsWith(summary![0])).toBe(true)
    const client = new Client({ apiUrl: serve.url, token: serve.token!, botId: serve.botId })
    const files = (await client.list.files({}).collect()).filter((f) => f.key.startsWith('cut/'))
    // Every upload in flight was settled: it completed (and is counted in the summary) or its record was deleted.
    // Nothing is left listed as pending or failed, and the count printed is the count listed.
    expect(files.map((f) => f.status).filter((status) => status !== 'upload_completed')).toEqual([])
    expect(files).toHaveLength(done)
    for (const file of files) expect(file.size).toBe(500_000)
  }, 60_000)
})
