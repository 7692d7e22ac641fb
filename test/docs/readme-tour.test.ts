import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from '../helpers/cli.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

async function readme(): Promise<string> {
  return readFile(join(root, 'README.md'), 'utf8')
}

/** The first ```sh block after a heading. */
function shellBlockAfter(text: string, heading: string): string[] {
  const start = text.indexOf(heading)
  expect(start, heading).toBeGreaterThan(-1)
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(start))
  return block![1]!.trimEnd().split('\n')
}

function run(command: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', command], { cwd, env: { ...process.env, ...env } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })))
}

describe('README', () => {
  it('shows an 11-line terminal tour before the reference (its CSV made in the tour itself), every command of which exists', async () => {
    const text = await readme()
    expect(text.indexOf('### A tour from the terminal')).toBeLessThan(text.indexOf('## Reference'))
    const lines = shellBlockAfter(text, '### A tour from the terminal')
    expect(lines).toHaveLength(11)
    const commands = lines.map((line) => line.replace(/\s+#.*$/, '')).filter((line) => line.startsWith('botshelf '))
    for (const wanted of ['botshelf serve', 'botshelf files put', 'botshelf files ls', 'botshelf files search', 'botshelf tables find']) {
      expect(commands.some((c) => c.startsWith(wanted)), wanted).toBe(true)
    }
    for (const command of commands) {
      const words = command.split(/\s+/).slice(1)
      const path = ['files', 'tables'].includes(words[0]!) ? words.slice(0, 2) : words.slice(0, 1)
      const help = await runCliCaptured([...path, '--help'])
      expect(help.code, command).toBe(0)
      expect(help.stdout, command).toContain('Usage')
    }
  })

  it('walks through an upload with curl that works as written', async () => {
    const lines = shellBlockAfter(await readme(), '### Upload a file with curl')
    expect(lines[0]).toMatch(/^URL=\S+ TOKEN=\S+ BOT=\S+/)
    const { createServer } = await import('../../server/src/http/server.js')
    const { silentLogger } = await import('../../server/src/http/logger.js')
    const server = await createServer({ memory: true, port: 0, logger: silentLogger })
    const cwd = await mkdtemp(join(tmpdir(), 'botshelf-readme-curl-'))
    try {
      const { bot, token } = await server.app.admin.bootstrap()
      // The first line sets the variables from the banner; the test gives them instead.
      const result = await run(lines.slice(1).join('\n'), cwd, { URL: server.url, TOKEN: token!.token, BOT: bot.id })
      expect(result.stderr).toBe('')
      expect(result.code).toBe(0)
      expect(result.stdout.trim().split('\n')).toEqual(['200', 'upload_completed', 'hello from curl'])
    } finally {
      await server.close()
      await rm(cwd, { recursive: true, force: true })
    }
  })

  it('loads @botpress/client the same way everywhere, and that way works', async () => {
    const docs = [join(root, 'README.md'), ...(await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f))]
    for (const doc of docs) {
      const text = await readFile(doc, 'utf8')
      expect(text, doc).not.toMatch(/createRequire\([^)]*\)\(['"]@botpress\/client['"]\)/)
      for (const line of text.split('\n').filter((l) => /^\s*import .* from '@botpress\/client'/.test(l))) {
        expect(line, doc).toMatch(/^import \{ Client \} from '@botpress\/client'/)
      }
    }
    const loaded = await run(`node --input-type=module -e "import { Client } from '@botpress/client'; console.log(typeof Client)" && node -e "console.log(typeof require('@botpress/client').Client)"`, root, {})
    expect(loaded.stdout).toBe('function\nfunction\n')
  })

  it('the webhook example explains a bad WEBHOOK_SECRET without a stack trace', async () => {
    const result = await run('node --import tsx examples/webhook-server.ts', root, { WEBHOOK_SECRET: 'whsec_!!!', PORT: '0' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('WEBHOOK_SECRET is not usable: secret: expected whsec_ followed by base64')
    expect(result.stderr).not.toMatch(/^\s+at /m)
  })
})
