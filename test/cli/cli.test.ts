import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest, type ClientRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliCaptured, spawnServe } from '../helpers/cli.js'

const dirs: string[] = []
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'botshelf-cli-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

function call(url: string, token: string, botId: string, path = '/v1/nothing'): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId } })
}

describe('botshelf serve', () => {
  it('bootstraps on first start, never reprints the token, keeps data, and stops gracefully on SIGTERM', async () => {
    const dataDir = await tempDir()
    const first = await spawnServe(dataDir)
    expect(first.token).toMatch(/^bs_/)
    expect(first.stderr()).toContain(`curl -H "Authorization: Bearer ${first.token}" -H "x-bot-id: ${first.botId}"`)
    expect(first.stderr()).toContain('BP_API_URL=')
    const res = await call(first.url, first.token!, first.botId)
    expect(res.status).toBe(404) // authenticated, then an unknown route
    const logLine = first.stdout().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request')
    expect(logLine).toMatchObject({ method: 'GET', path: '/v1/nothing', status: 404, botId: first.botId })

    const viewer = await runCliCaptured(['token', 'create', '--data', dataDir, '--role', 'viewer'])
    expect(viewer.code).toBe(0)
    expect(viewer.stdout).toMatch(/^bs_[A-Za-z0-9_-]{43}\n$/)
    expect((await call(first.url, viewer.stdout.trim(), first.botId)).status).toBe(404)

    first.child.kill('SIGTERM')
    expect(await first.exited).toBe(0)
    expect(first.stderr()).toContain('botshelf stopped')

    const second = await spawnServe(dataDir)
    expect(second.botId).toBe(first.botId)
    expect(second.token).toBeUndefined()
    expect(second.stderr()).not.toContain(first.token!)
    expect((await call(second.url, first.token!, first.botId)).status).toBe(404)
    second.child.kill('SIGINT')
    expect(await second.exited).toBe(0)
  })

  it('refuses a bad port with a clear message and exit code 2', async () => {
    const result = await runCliCaptured(['serve', '--port', 'http'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--port must be an integer from 0 to 65535, received "http"')
  })

  it('refuses unknown options and names them', async () => {
    const result = await runCliCaptured(['serve', '--prot', '3000'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("Unknown option '--prot'")
    expect(result.stderr).toContain('botshelf serve --help')
  })

  it('prints help for every command', async () => {
    expect((await runCliCaptured(['--help'])).stdout).toContain('Usage: botshelf <command>')
    expect((await runCliCaptured(['serve', '--help'])).stdout).toContain('Usage: botshelf serve')
    expect((await runCliCaptured(['token', '--help'])).stdout).toContain('botshelf token create')
    expect((await runCliCaptured(['token', 'create', '--help'])).stdout).toContain('--integration NAME')
    const unknown = await runCliCaptured(['launch'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown command "launch"')
  })
})

describe('botshelf token', () => {
  async function bootstrapped(): Promise<{ dataDir: string; botId: string }> {
    const dataDir = await tempDir()
    const { createApp } = await import('../../server/src/http/app.js')
    const { silentLogger } = await import('../../server/src/http/logger.js')
    const app = await createApp({ dataDir, logger: silentLogger })
    const { bot } = await app.admin.bootstrap()
    await app.close()
    return { dataDir, botId: bot.id }
  }

  it('creates, lists and revokes tokens', async () => {
    const { dataDir, botId } = await bootstrapped()
    const created = await runCliCaptured(['token', 'create', '--data', dataDir, '--bot', botId, '--role', 'integration', '--integration', 'slack'])
    expect(created.code).toBe(0)
    expect(created.stdout.trim()).toMatch(/^bs_/)
    const id = /created (tok_[0-9a-f]+)/.exec(created.stderr)![1]!

    const list = await runCliCaptured(['token', 'list', '--data', dataDir])
    expect(list.stdout).toContain(id)
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+bot\\s+${botId}\\s+integration\\s+slack`))
    expect(list.stdout).not.toContain(created.stdout.trim())

    expect((await runCliCaptured(['token', 'revoke', '--data', dataDir, id])).code).toBe(0)
    expect((await runCliCaptured(['token', 'list', '--data', dataDir])).stdout).not.toContain(id)
    const all = await runCliCaptured(['token', 'list', '--data', dataDir, '--all', '--json'])
    const rows = JSON.parse(all.stdout) as Array<{ id: string; revokedAt: string | null }>
    expect(rows.find((r) => r.id === id)?.revokedAt).toEqual(expect.any(String))
  })

  it('a token revoked from the command line beside a running server is refused at its next request', async () => {
    const dataDir = await tempDir()
    const server = await spawnServe(dataDir)
    try {
      const created = await runCliCaptured(['token', 'create', '--data', dataDir, '--bot', server.botId, '--role', 'bot'])
      const token = created.stdout.trim()
      const id = /created (tok_[0-9a-f]+)/.exec(created.stderr)![1]!
      // Accepted several times first, so the server has had every chance to keep its answer.
      for (let i = 0; i < 3; i++) expect((await call(server.url, token, server.botId, '/v1/files')).status).toBe(200)
      expect((await runCliCaptured(['token', 'revoke', '--data', dataDir, id])).code).toBe(0)
      expect((await call(server.url, token, server.botId, '/v1/files')).status).toBe(401)
      expect((await call(server.url, server.token!, server.botId, '/v1/files')).status).toBe(200)
    } finally {
      server.child.kill('SIGTERM')
      await server.exited
    }
  })

  it('explains bad arguments', async () => {
    const { dataDir, botId } = await bootstrapped()
    const cases: Array<[string[], string]> = [
      [['token', 'create', '--data', dataDir], '--role is required'],
      [['token', 'create', '--data', dataDir, '--role', 'owner'], '--role must be one of bot, integration, viewer'],
      [['token', 'create', '--data', dataDir, '--role', 'integration'], '--integration NAME is required'],
      [['token', 'create', '--data', dataDir, '--role', 'bot', '--integration', 'x'], '--integration only goes with --role integration'],
      [['token', 'create', '--data', dataDir, '--role', 'bot', '--bot', 'nope'], `No bot with id "nope" in this data folder; bots: ${botId}`],
      [['token', 'create', '--data', join(dataDir, 'missing'), '--role', 'bot'], 'No botshelf data folder at'],
      [['token', 'revoke', '--data', dataDir], 'takes exactly one token id'],
      [['token', 'revoke', '--data', dataDir, 'tok_nope'], 'No token with id "tok_nope"'],
      [['token', 'rotate'], 'Unknown token command "rotate"'],
      [['token', 'create', '--data', dataDir, '--workspace', '--role', 'bot'], '--workspace takes a member role (viewer, developer, manager, administrator, billing_manager); received --role bot'],
      [['token', 'create', '--data', dataDir, '--workspace', '--role', 'integration', '--integration', 'slack'], 'An integration token acts for one bot: drop --workspace'],
      [['token', 'create', '--data', dataDir, '--workspace', '--role', 'viewer', '--bot', botId], '--workspace and --bot exclude each other'],
    ]
    for (const [argv, message] of cases) {
      const result = await runCliCaptured(argv)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.stderr, argv.join(' ')).toContain(message)
      expect(result.stdout).toBe('')
    }
  })
})

describe('botshelf token create --workspace', () => {
  it('creates a member token that reaches every bot, lists its scope, and keeps bot tokens bound', async () => {
    const dataDir = await tempDir()
    const { createApp } = await import('../../server/src/http/app.js')
    const { silentLogger } = await import('../../server/src/http/logger.js')
    const setup = await createApp({ dataDir, logger: silentLogger })
    const { bot: first, token: firstBotToken } = await setup.admin.bootstrap()
    const second = await setup.admin.createBot({ name: 'archive' })
    await setup.close()

    // Two bots, yet no --bot needed: the token is bound to the workspace.
    const created = await runCliCaptured(['token', 'create', '--data', dataDir, '--workspace', '--role', 'developer', '--label', 'alice'])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^bs_[A-Za-z0-9_-]{43}\n$/)
    const id = /created (tok_[0-9a-f]+) \(developer\) for every bot of workspace (wkspace_[0-9a-f]+)/.exec(created.stderr)
    expect(id).not.toBeNull()

    const list = await runCliCaptured(['token', 'list', '--data', dataDir])
    expect(list.stdout).toMatch(/^id\s+scope\s+bot\s+role/)
    expect(list.stdout).toMatch(new RegExp(`${id![1]}\\s+workspace\\s+\\*\\s+developer`))
    expect(list.stdout).toMatch(new RegExp(`${firstBotToken!.id}\\s+bot\\s+${first.id}\\s+bot`))
    // --bot keeps the tokens that reach that bot: the workspace token reaches the second bot, the first bot token does not.
    const forSecond = await runCliCaptured(['token', 'list', '--data', dataDir, '--bot', second.id, '--json'])
    const rows = JSON.parse(forSecond.stdout) as Array<{ id: string; scope: string; botId: string | null; workspaceId: string | null; label: string | null }>
    expect(rows).toEqual([expect.objectContaining({ id: id![1], scope: 'workspace', botId: null, workspaceId: id![2], label: 'alice' })])

    const app = await createApp({ dataDir, logger: silentLogger })
    const call = (token: string, botId: string) =>
      app.fetch(new Request('http://x/v1/files', { headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId } }))
    expect((await call(created.stdout.trim(), first.id)).status).toBe(200)
    expect((await call(created.stdout.trim(), second.id)).status).toBe(200)
    expect((await call(firstBotToken!.token, second.id)).status).toBe(403)
    await app.close()

    expect((await runCliCaptured(['token', 'revoke', '--data', dataDir, id![1]!])).code).toBe(0)
    const reopened = await createApp({ dataDir, logger: silentLogger })
    const revoked = await reopened.fetch(new Request('http://x/v1/files', { headers: { authorization: `Bearer ${created.stdout.trim()}`, 'x-bot-id': second.id } }))
    expect(revoked.status).toBe(401)
    await reopened.close()
  })
})

describe('botshelf bot', () => {
  it('creates a second bot that gets its own token, and lists bots', async () => {
    const dataDir = await tempDir()
    const { createApp } = await import('../../server/src/http/app.js')
    const { silentLogger } = await import('../../server/src/http/logger.js')
    const setup = await createApp({ dataDir, logger: silentLogger })
    const { bot: first } = await setup.admin.bootstrap()
    await setup.close()

    const created = await runCliCaptured(['bot', 'create', '--data', dataDir, '--name', 'archive'])
    expect(created.code).toBe(0)
    const secondId = created.stdout.trim()
    expect(secondId).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.stderr).toContain(`botshelf token create --bot ${secondId} --role bot`)

    const list = await runCliCaptured(['bot', 'list', '--data', dataDir])
    expect(list.stdout).toMatch(new RegExp(`${first.id}\\s+my-bot`))
    expect(list.stdout).toMatch(new RegExp(`${secondId}\\s+archive`))

    // With two bots, token create needs --bot.
    const ambiguous = await runCliCaptured(['token', 'create', '--data', dataDir, '--role', 'bot'])
    expect(ambiguous.code).toBe(2)
    expect(ambiguous.stderr).toContain('--bot is required: this data folder has 2 bots')
    const token = await runCliCaptured(['token', 'create', '--data', dataDir, '--role', 'bot', '--bot', secondId])
    expect(token.code).toBe(0)

    const app = await createApp({ dataDir, logger: silentLogger })
    const res = await app.fetch(new Request('http://x/v1/files', { headers: { authorization: `Bearer ${token.stdout.trim()}`, 'x-bot-id': secondId } }))
    expect(res.status).toBe(200)
    await app.close()

    const bad = await runCliCaptured(['bot', 'remove', '--data', dataDir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('Unknown bot command "remove"')
  })
})

describe('botshelf serve options', () => {
  it('applies --cors-origin and --public-url, and refuses malformed ones', async () => {
    const { serveCommand } = await import('../../server/src/cli/serve.js')
    const dataDir = await tempDir()
    let err = ''
    const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } }
    const handle = (await serveCommand(
      ['--port', '0', '--data', dataDir, '--cors-origin', 'http://localhost:5173', '--public-url', 'https://files.example.com/'],
      io,
      false,
    ))!
    try {
      expect(err).toContain('curl -H "Authorization: Bearer')
      expect(err).toContain('https://files.example.com/v1/files')
      const res = await fetch(`${handle.server.url}/v1/files`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
      })
      expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    } finally {
      await handle.stop()
    }
    expect(await handle.done).toBe(0)

    const badCors = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--cors-origin', 'localhost:5173'])
    expect(badCors.code).toBe(2)
    expect(badCors.stderr).toContain('--cors-origin must be an origin like http://localhost:5173')
    const badUrl = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--public-url', 'files.example.com'])
    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toContain('--public-url must be an absolute http(s) URL')
  })

  describe('--shutdown-grace', () => {
    /** Starts `serve` in process with `args`, upserts a 10-byte file and begins its upload with 3 bytes only. */
    async function serveWithUploadInFlight(args: string[]) {
      const { serveCommand } = await import('../../server/src/cli/serve.js')
      const dataDir = await tempDir()
      let err = ''
      const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } }
      const handle = (await serveCommand(['--port', '0', '--data', dataDir, ...args], io, false))!
      const token = /bot token:\s+(\S+)/.exec(err)![1]!
      const botId = /bot id:\s+(\S+)/.exec(err)![1]!
      const upsert = await fetch(`${handle.server.url}/v1/files`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'slow.bin', size: 10 }),
      })
      const uploadUrl = new URL(((await upsert.json()) as { file: { uploadUrl: string } }).file.uploadUrl)
      // The server has the request once its 'request' event fired (headers parsed, body still coming).
      const received = new Promise((resolve) => handle.server.httpServer.once('request', resolve))
      let upload!: ClientRequest
      const answered = new Promise<{ status: number } | { error: string }>((resolve) => {
        upload = httpRequest(uploadUrl, { method: 'PUT', headers: { 'content-length': '10' }, agent: false }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode ?? 0 }))
        })
        upload.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }))
      })
      upload.write('abc')
      await received
      return { handle, upload, answered, dataDir }
    }

    it('lets a request in flight finish within the grace', async () => {
      const { handle, upload, answered } = await serveWithUploadInFlight(['--shutdown-grace', '60'])
      const stopped = handle.stop()
      upload.end('defghij')
      expect(await answered).toEqual({ status: 200 })
      await stopped
      expect(await handle.done).toBe(0)
    })

    // The 8 s limit of this test is below the default grace (10 s): it only passes when the option is applied.
    it('cuts a request still in flight when a short grace ends', async () => {
      const { handle, answered, dataDir } = await serveWithUploadInFlight(['--shutdown-grace', '0.2'])
      await handle.stop()
      expect(await answered).toEqual({ error: expect.stringMatching(/ECONNRESET|socket hang up/) })
      expect(await handle.done).toBe(0)
      const Database = (await import('better-sqlite3')).default
      const db = new Database(join(dataDir, 'botshelf.db'), { readonly: true })
      try {
        // The cut upload was recorded before the database closed, so its client can tell it failed.
        expect(db.prepare("SELECT status, failed_status_reason AS reason FROM files WHERE key = 'slow.bin'").all()).toEqual([
          { status: 'upload_failed', reason: 'the upload was interrupted before all the content arrived' },
        ])
      } finally {
        db.close()
      }
    }, 8_000)

    it('refuses a value that is not a number of seconds, naming the option (exit 2)', async () => {
      for (const value of ['soon', '-1', '1e3', '90000', '']) {
        const result = await runCliCaptured(['serve', '--port', '0', `--shutdown-grace=${value}`])
        expect(result.code, value).toBe(2)
        expect(result.stderr).toContain(`--shutdown-grace must be a number of seconds from 0 to 86400 (like 10 or 2.5), received ${JSON.stringify(value)}`)
      }
      expect((await runCliCaptured(['serve', '--help'])).stdout).toContain('--shutdown-grace <s>')
    })
  })

  describe('--rate-limit', () => {
    it('applies --rate-limit: the banner shows the limits in force and the 429 names them', async () => {
      const { serveCommand } = await import('../../server/src/cli/serve.js')
      const dataDir = await tempDir()
      let err = ''
      const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } }
      const handle = (await serveCommand(['--port', '0', '--data', dataDir, '--rate-limit', '1/m,burst=2,ip=off'], io, false))!
      try {
        expect(err).toContain('  rate limits: token 1/m,burst=2; ip off\n')
        const token = /bot token:\s+(\S+)/.exec(err)![1]!
        const botId = /bot id:\s+(\S+)/.exec(err)![1]!
        const statuses = [] as number[]
        let last!: Response
        for (let i = 0; i < 3; i++) {
          last = await call(handle.server.url, token, botId, '/v1/files')
          statuses.push(last.status)
        }
        expect(statuses).toEqual([200, 200, 429])
        expect(last.headers.get('retry-after')).toBe('60')
        expect(((await last.json()) as { message: string }).message).toBe(
          'Rate limit exceeded: this token may send 1 request per minute (bursts of 2); retry in 60 s',
        )
        // ip=off: the routes without a token are not limited.
        for (let i = 0; i < 5; i++) expect((await fetch(`${handle.server.url}/health`)).status).toBe(200)
      } finally {
        await handle.stop()
      }
    })

    it('prints the default limits, and "off" when switched off', async () => {
      const { serveCommand } = await import('../../server/src/cli/serve.js')
      for (const [args, shown] of [
        [[], 'token off; ip 200/s,burst=1000'],
        [['--rate-limit', 'off'], 'off'],
      ] as const) {
        let err = ''
        const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } }
        const handle = (await serveCommand(['--port', '0', '--data', await tempDir(), ...args], io, false))!
        await handle.stop()
        expect(err).toContain(`  rate limits: ${shown}\n`)
      }
    })

    it('refuses a spec it cannot read with exit code 2, naming the faulty setting', async () => {
      const cases: Array<[string, string]> = [
        ['fast', '--rate-limit: "fast" is not a setting; expected "off", or comma-separated settings'],
        ['10/s,burst=0', '--rate-limit: token: burst must be a whole number from 1 to 100000000, received 0 (received "10/s,burst=0")'],
        ['ip=often', '--rate-limit: ip: expected a rate like 100/s, 30/m or 1000/h, received "often"'],
        ['0/s', '--rate-limit: token: perSecond must be a number above 0'],
        ['', '--rate-limit: expected "off", or comma-separated settings'],
      ]
      for (const [spec, message] of cases) {
        const result = await runCliCaptured(['serve', '--port', '0', `--rate-limit=${spec}`])
        expect(result.code, spec).toBe(2)
        expect(result.stderr, spec).toContain(message)
        expect(result.stderr, spec).toContain('Run "botshelf serve --help" for usage.')
      }
      const help = (await runCliCaptured(['serve', '--help'])).stdout
      expect(help).toContain('--rate-limit <spec>')
      expect(help).toContain('e.g. --rate-limit 50/s,burst=200')
    })
  })
})
