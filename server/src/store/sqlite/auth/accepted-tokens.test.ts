import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AcceptedTokens } from './accepted-tokens.js'
import { authMigrations } from './migrations.js'
import { AuthStore } from './auth-port.js'
import { runMigrations } from '../migrations.js'
import { openDatabase, type Sqlite } from '../connect.js'

describe('accepted tokens kept by the SQLite auth store', () => {
  let dir: string
  let db: Sqlite
  let other: Sqlite
  let store: AuthStore

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'botshelf-accepted-'))
    db = openDatabase(join(dir, 'botshelf.db'))
    runMigrations(db, authMigrations)
    other = openDatabase(join(dir, 'botshelf.db'))
    store = new AuthStore(db)
  })

  afterEach(() => {
    other.close()
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('answers a repeated check from memory: a row changed behind the store on its own connection is not read again', () => {
    const bot = store.createBot({ name: 'a' })
    const { token } = store.createToken({ botId: bot.id, role: 'bot' })
    expect(store.authenticate(token, bot.id).ok).toBe(true)
    // Not through the store, not from another connection: only the kept answer can still accept it.
    db.prepare('UPDATE tokens SET revoked_at = ?').run(new Date().toISOString())
    expect(store.authenticate(token, bot.id).ok).toBe(true)
    store.revokeToken(store.listTokens()[0]!.id)
    expect(store.authenticate(token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
  })

  it('refuses a token revoked through the store at once', () => {
    const bot = store.createBot({ name: 'a' })
    const created = store.createToken({ botId: bot.id, role: 'bot' })
    expect(store.authenticate(created.token, bot.id).ok).toBe(true)
    store.revokeToken(created.id)
    expect(store.authenticate(created.token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
  })

  it('refuses a token revoked by another connection (a management command beside the server) at the next request', async () => {
    const bot = store.createBot({ name: 'a' })
    const created = store.createToken({ botId: bot.id, role: 'bot' })
    expect(store.authenticate(created.token, bot.id).ok).toBe(true)
    other.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), created.id)
    // A request that comes after the revocation is read in a later callback of the event loop.
    await new Promise((resolve) => setImmediate(resolve))
    expect(store.authenticate(created.token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
  })

  it('keeps no refusal: a token unknown a moment ago is accepted once another connection restores it', async () => {
    const bot = store.createBot({ name: 'a' })
    const created = store.createToken({ botId: bot.id, role: 'bot' })
    const row = other.prepare('SELECT * FROM tokens WHERE id = ?').get(created.id) as Record<string, unknown>
    other.prepare('DELETE FROM tokens').run()
    expect(store.authenticate(created.token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
    const columns = Object.keys(row)
    other.prepare(`INSERT INTO tokens (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(row))
    await new Promise((resolve) => setImmediate(resolve))
    expect(store.authenticate(created.token, bot.id).ok).toBe(true)
  })

  it('keeps nothing read inside a transaction that then rolls back', () => {
    const bot = store.createBot({ name: 'a' })
    let token = ''
    expect(() =>
      db.transaction(() => {
        token = store.createToken({ botId: bot.id, role: 'bot' }).token
        expect(store.authenticate(token, bot.id).ok).toBe(true)
        throw new Error('roll back')
      })(),
    ).toThrow('roll back')
    expect(store.authenticate(token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
  })

  it('keeps each (token, bot) pair apart: a token accepted for one bot is still refused for another', () => {
    const first = store.createBot({ name: 'a' })
    const second = store.createBot({ name: 'b' })
    const { token } = store.createToken({ botId: first.id, role: 'bot' })
    expect(store.authenticate(token, first.id).ok).toBe(true)
    expect(store.authenticate(token, second.id)).toEqual({ ok: false, reason: 'wrong_bot' })
  })

  it('stays correct past its capacity', () => {
    const accepted = new AcceptedTokens(db, 2)
    const bots = [store.createBot({ name: 'a' }), store.createBot({ name: 'b' }), store.createBot({ name: 'c' })]
    const checks = bots.map((bot) => ({ bot, check: store.authenticate(store.createToken({ botId: bot.id, role: 'bot' }).token, bot.id) }))
    checks.forEach(({ bot, check }, index) => accepted.remember(`token-${index}`, bot.id, check))
    expect(accepted.get('token-2', bots[2]!.id)).toBe(checks[2]!.check)
    expect(accepted.get('token-0', bots[0]!.id)).toBeUndefined()
    expect(accepted.get('token-2', bots[0]!.id)).toBeUndefined()
  })
})
