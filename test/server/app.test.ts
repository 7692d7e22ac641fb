import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { createApp } from '../../server/src/http/app.js'
import type { AppEnv, ServiceFeature } from '../../server/src/http/env.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { createServer } from '../../server/src/http/server.js'
import { openSqliteBackend, type SqliteBackend } from '../../server/src/store/sqlite/backend.js'
import { echoFeature } from './fixtures/echo-feature.js'

const dirs: string[] = []
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'botshelf-app-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

function authed(token: string, botId: string): RequestInit {
  return { headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId } }
}

describe('createApp', () => {
  it('needs exactly one of backend, dataDir and memory', async () => {
    await expect(createApp({})).rejects.toThrow(/give a backend, a dataDir .* or memory: true/)
    await expect(createApp({ dataDir: '/tmp/x', memory: true })).rejects.toThrow(/give one of backend, dataDir or memory: true/)
    const backend = await openSqliteBackend({ memory: true })
    await expect(createApp({ backend, now: () => new Date() })).rejects.toThrow(/give the clock to the backend/)
    await backend.close()
  })

  it('serves a backend it was given and leaves it open on close', async () => {
    const backend = await openSqliteBackend({ memory: true })
    const app = await createApp({ backend, logger: silentLogger })
    const bot = await app.admin.createBot()
    await app.close()
    expect((await backend.auth.listBots()).map((b) => b.id)).toEqual([bot.id])
    await backend.close()
  })

  it('keeps bots, tokens, migrations and the signing key across restarts of a data folder', async () => {
    const dataDir = await tempDir()
    const first = await createApp({ dataDir, logger: silentLogger, features: [echoFeature] })
    const boot = await first.admin.bootstrap()
    expect(boot.created).toBe(true)
    expect(boot.token?.token).toMatch(/^bs_[A-Za-z0-9_-]{43}$/)
    const key = first.services.signingKey
    await first.close()

    // The key lives in the database now (every server on a dataset shares it), not in a file.
    expect(existsSync(join(dataDir, 'signing-key'))).toBe(false)

    const second = await createApp({ dataDir, logger: silentLogger, features: [echoFeature] })
    const again = await second.admin.bootstrap()
    expect(again).toEqual({ created: false, bot: boot.bot })
    expect(second.services.signingKey.equals(key)).toBe(true)
    const res = await second.fetch(new Request('http://x/v1/echo/a', authed(boot.token!.token, boot.bot.id)))
    expect(res.status).toBe(200)
    await second.close()
  })

  it('stores only a hash of each token', async () => {
    const dataDir = await tempDir()
    const app = await createApp({ dataDir, logger: silentLogger })
    const bot = await app.admin.createBot()
    const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
    await app.close()
    const db = await readFile(join(dataDir, 'botshelf.db'))
    const wal = existsSync(join(dataDir, 'botshelf.db-wal')) ? await readFile(join(dataDir, 'botshelf.db-wal')) : Buffer.alloc(0)
    const secret = token.slice(3)
    expect(db.includes(secret)).toBe(false)
    expect(wal.includes(secret)).toBe(false)
  })

  it('adopts the signing-key file of an older data folder, so URLs it signed keep working', async () => {
    const dataDir = await tempDir()
    const legacy = 'ab'.repeat(32)
    await writeFile(join(dataDir, 'signing-key'), legacy)
    const app = await createApp({ dataDir, logger: silentLogger })
    expect(app.services.signingKey.toString('hex')).toBe(legacy)
    await app.close()
    // Once adopted, the file no longer matters: a corrupt one is reported and ignored, the key stays.
    await writeFile(join(dataDir, 'signing-key'), 'not hex')
    const lines: string[] = []
    const again = await createApp({ dataDir, logger: { log: (level, msg, fields) => lines.push(`${level} ${msg} ${String(fields?.['error'])}`) } })
    expect(again.services.signingKey.toString('hex')).toBe(legacy)
    expect(lines.some((line) => /^warn ignored an unreadable signing-key file.*is corrupt/.test(line))).toBe(true)
    await again.close()
  })

  it('gives each in-memory app its own signing key and removes its temp content folder on close', async () => {
    const a = await createApp({ memory: true, logger: silentLogger })
    const b = await createApp({ memory: true, logger: silentLogger })
    expect(a.services.signingKey.equals(b.services.signingKey)).toBe(false)
    expect(a.services.dataDir).toBeNull()
    const contentDir = (a.services.backend as SqliteBackend).contentDir
    expect(existsSync(contentDir)).toBe(true)
    await a.close()
    await b.close()
    expect(existsSync(contentDir)).toBe(false)
  })

  it('validates admin input with clear errors', async () => {
    const app = await createApp({ memory: true, logger: silentLogger })
    const bot = await app.admin.createBot()
    await expect(app.admin.createToken({ botId: 'nope', role: 'bot' })).rejects.toThrow('No bot with id "nope"')
    await expect(app.admin.createToken({ botId: bot.id, role: 'owner' as never })).rejects.toThrow(/Unknown role "owner"; expected one of bot, integration/)
    await expect(app.admin.createToken({ botId: bot.id, role: 'integration' })).rejects.toThrow(/needs an integration name/)
    await expect(app.admin.createToken({ botId: bot.id, role: 'bot', integrationName: 'x' })).rejects.toThrow(/Only integration tokens/)
    await expect(app.admin.revokeToken('tok_missing')).rejects.toThrow('No token with id "tok_missing"')
    const created = await app.admin.createToken({ botId: bot.id, role: 'viewer' })
    expect((await app.admin.listTokens({ activeOnly: true })).map((t) => t.id)).toEqual([created.id])
    await app.admin.revokeToken(created.id)
    expect(await app.admin.listTokens({ activeOnly: true })).toEqual([])
    expect((await app.admin.listTokens())[0]).toMatchObject({ id: created.id, revokedAt: expect.any(String) })
    expect(JSON.stringify(await app.admin.listTokens())).not.toContain(created.token)
    await app.close()
  })

  it('starts and stops feature tasks', async () => {
    const events: string[] = []
    const feature: ServiceFeature = {
      name: 'task',
      start: (services) => {
        events.push(`start ${services.dataDir === null ? 'memory' : 'disk'}`)
        return { stop: () => void events.push('stop') }
      },
    }
    const app = await createApp({ memory: true, logger: silentLogger, features: [feature] })
    expect(events).toEqual(['start memory'])
    await app.close()
    await app.close()
    expect(events).toEqual(['start memory', 'stop'])
  })
})

describe('data folder lock', () => {
  it('refuses a data folder held by another live process, and takes over a stale lock', async () => {
    const dataDir = await tempDir()
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'])
    try {
      await writeFile(join(dataDir, 'botshelf.lock'), String(sleeper.pid))
      await expect(createApp({ dataDir, logger: silentLogger })).rejects.toThrow(`is in use by another botshelf process (pid ${sleeper.pid})`)
    } finally {
      const exited = new Promise((resolve) => sleeper.once('exit', resolve))
      sleeper.kill('SIGKILL')
      await exited
    }
    // The holder is gone now: its lock is stale.
    const app = await createApp({ dataDir, logger: silentLogger })
    expect(await readFile(join(dataDir, 'botshelf.lock'), 'utf8')).toBe(String(process.pid))
    await app.close()
    expect(existsSync(join(dataDir, 'botshelf.lock'))).toBe(false)
  })
})

describe('createServer', () => {
  it('listens on a port and lets a request in flight finish on close', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    let arrived: () => void = () => {}
    const inHandler = new Promise<void>((resolve) => (arrived = resolve))
    const slow = new Hono<AppEnv>()
    slow.get('/v1/slow', async (c) => {
      arrived()
      await gate
      return c.json({ done: true })
    })
    const server = await createServer({ memory: true, port: 0, logger: silentLogger, features: [{ name: 'slow', routes: slow }] })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const bot = await server.app.admin.createBot()
    const { token } = await server.app.admin.createToken({ botId: bot.id, role: 'bot' })

    const inFlight = fetch(`${server.url}/v1/slow`, authed(token, bot.id))
    await inHandler
    let closed = false
    const closing = server.close().then(() => (closed = true))
    // close() has stopped listening and waits for the request in flight.
    await eventually(async () => (server.httpServer.listening ? undefined : true), 'the listener closed')
    expect(closed).toBe(false)
    release()
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ done: true })
    await closing
    await expect(fetch(`${server.url}/v1/slow`, authed(token, bot.id))).rejects.toThrow()
  })

  it('raises the 5-minute request timeout of node:http to an hour by default, for long uploads', async () => {
    const server = await createServer({ memory: true, port: 0, logger: silentLogger })
    const custom = await createServer({ memory: true, port: 0, logger: silentLogger, requestTimeoutMs: 1234 })
    expect(server.httpServer.requestTimeout).toBe(3_600_000)
    // Headers get 20 s (Node 20 starts the clock at a request's first byte, so idle kept-alive sockets are not cut).
    expect(server.httpServer.headersTimeout).toBe(20_000)
    // Idle keep-alive sockets outlive clients' agents (4-5 s), so a reused socket is never closed under the client.
    expect(server.httpServer.keepAliveTimeout).toBe(65_000)
    expect(custom.httpServer.requestTimeout).toBe(1234)
    expect(custom.httpServer.headersTimeout).toBe(1234)
    await server.close()
    await custom.close()
  })

  it('reports a busy port as an error', async () => {
    const first = await createServer({ memory: true, port: 0, logger: silentLogger })
    await expect(createServer({ memory: true, port: first.port, logger: silentLogger })).rejects.toThrow(/EADDRINUSE/)
    await first.close()
  })
})
