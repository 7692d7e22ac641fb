import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../helpers/cli.js'

const dirs: string[] = []
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'botshelf-cli-fixes-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('small CLI fixes', () => {
  it('--port -1 is refused for its value, not called ambiguous', async () => {
    const result = await runCliCaptured(['serve', '--port', '-1'])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe('botshelf: --port must be an integer from 0 to 65535, received "-1"\n')
  })

  it('token revoke --help prints the help of revoke alone', async () => {
    const result = await runCliCaptured(['token', 'revoke', '--help'])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Usage: botshelf token revoke \[--data DIR \| --database URL\] <token id>/)
    expect(result.stdout).not.toContain('token create')
    expect((await runCliCaptured(['token', 'list', '--help'])).stdout).toMatch(/^Usage: botshelf token list/)
  })

  it('--host 999.1.1.1 says which option is wrong instead of a raw getaddrinfo error, and leaves no data folder', async () => {
    const dataDir = join(await tempDir(), 'data')
    const result = await runCliCaptured(['serve', '--port', '0', '--host', '999.1.1.1', '--data', dataDir])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('botshelf: --host "999.1.1.1" is not an address or a known host name')
    expect(result.stderr).not.toContain('getaddrinfo')
    expect(existsSync(dataDir)).toBe(false)
  })

  it('a start that fails because the port is in use creates neither the data folder nor a bot', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      const dataDir = join(await tempDir(), 'data')
      const result = await runCliCaptured(['serve', '--port', String(port), '--data', dataDir])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain('the port is already in use')
      expect(result.stderr).not.toContain('bot token')
      expect(existsSync(dataDir)).toBe(false)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  it('refuses a bad --log-level, --log-format or BOTSHELF_LOG_LEVEL naming it', async () => {
    const level = await runCliCaptured(['serve', '--port', '0', '--log-level', 'loud'])
    expect(level.code).toBe(2)
    expect(level.stderr).toContain('--log-level must be one of debug, info, warn, error, silent, received "loud"')
    const format = await runCliCaptured(['serve', '--port', '0', '--log-format', 'xml'])
    expect(format.code).toBe(2)
    expect(format.stderr).toContain('--log-format must be pretty or json, received "xml"')
    const previous = process.env.BOTSHELF_LOG_LEVEL
    process.env.BOTSHELF_LOG_LEVEL = 'chatty'
    try {
      const fromEnv = await runCliCaptured(['serve', '--port', '0'])
      expect(fromEnv.code).toBe(2)
      expect(fromEnv.stderr).toContain('BOTSHELF_LOG_LEVEL must be one of debug, info, warn, error, silent, received "chatty"')
    } finally {
      if (previous === undefined) delete process.env.BOTSHELF_LOG_LEVEL
      else process.env.BOTSHELF_LOG_LEVEL = previous
    }
  })
})

describe('serve --metrics-port and --log-format', () => {
  it('prints where the metrics are, serves them there for an administrator token, and logs JSON lines as asked', async () => {
    const { serveCommand } = await import('../../server/src/cli/serve.js')
    const dataDir = await tempDir()
    let err = ''
    let out = ''
    const io = { stdout: { write: (t: string) => (out += t), isTTY: true }, stderr: { write: (t: string) => (err += t) }, env: {} }
    const handle = (await serveCommand(['--port', '0', '--data', dataDir, '--metrics-port', '0', '--log-format', 'json'], io, false))!
    try {
      const metricsUrl = /metrics:\s+(\S+)\/metrics/.exec(err)?.[1]
      expect(metricsUrl).toBeDefined()
      expect(metricsUrl).not.toBe(handle.server.url)
      const admin = await runCliCaptured(['token', 'create', '--data', dataDir, '--workspace', '--role', 'administrator'])
      const scraped = await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer ${admin.stdout.trim()}` } })
      expect(scraped.status).toBe(200)
      await fetch(`${handle.server.url}/health`)
      const line = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request')
      expect(line).toMatchObject({ level: 'info', path: '/health', status: 200 })
    } finally {
      await handle.stop()
    }
  })
})
