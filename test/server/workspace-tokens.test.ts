import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { authMigrations } from '../../server/src/store/sqlite/auth/migrations.js'
import { AuthStoreError } from '../../server/src/store/index.js'
import { filesMigrations } from '../../server/src/store/sqlite/files/migrations.js'
import { runMigrations } from '../../server/src/store/sqlite/migrations.js'
import { openDatabase } from '../../server/src/store/sqlite/connect.js'
import { tablesMigrations } from '../../server/src/store/sqlite/tables/migrations.js'
import { startTestService, type TestService } from '../helpers/service.js'

describe('workspace member tokens: authentication', () => {
  let service: TestService
  let developer: string
  let viewer: string
  beforeEach(async () => {
    service = await startTestService()
    developer = (await service.app.admin.createToken({ workspace: true, role: 'developer' })).token
    viewer = (await service.app.admin.createToken({ workspace: true, role: 'viewer' })).token
  })
  afterEach(async () => {
    await service.close()
  })

  it('authenticates for every bot of the workspace named in x-bot-id, with its role', async () => {
    for (const botId of [service.botId, service.otherBotId]) {
      const listed = await service.request('GET', '/v1/files', { token: developer, botId })
      expect(listed.status, botId).toBe(200)
      const created = await service.request('PUT', '/v1/files', { token: developer, botId, body: { key: 'dev.txt', size: 1 } })
      expect(created.status, botId).toBe(200)
      expect(created.body.file.owner).toMatchObject({ type: 'user' })
      // The role goes with the token into every bot: a viewer reads, but never creates.
      expect((await service.request('GET', '/v1/files/dev.txt', { token: viewer, botId })).status).toBe(200)
      const refused = await service.request('PUT', '/v1/files', { token: viewer, botId, body: { key: 'viewer.txt', size: 1 } })
      expect(refused.status, botId).toBe(403)
      expect(refused.body.type).toBe('Forbidden')
    }
  })

  it('reaches a bot created after the token', async () => {
    const late = await service.app.admin.createBot({ name: 'late' })
    expect((await service.request('GET', '/v1/files', { token: developer, botId: late.id })).status).toBe(200)
  })

  it('keeps the auth order: 401 before 400 before 403, an unknown bot is 403', async () => {
    const unknownBot = await service.request('GET', '/v1/files', { token: developer, botId: 'no-such-bot' })
    expect(unknownBot.status).toBe(403)
    expect(unknownBot.body).toMatchObject({ type: 'Forbidden', message: 'This token has no access to bot "no-such-bot": no bot with that id in its workspace' })

    const noBot = await service.request('GET', '/v1/files', { token: developer, botId: null })
    expect(noBot.status).toBe(400)
    expect(noBot.body.type).toBe('InvalidPayload')

    const { id } = (await service.app.admin.listTokens()).find((t) => t.scope === 'workspace' && t.role === 'viewer')!
    await service.app.admin.revokeToken(id)
    for (const botId of [service.botId, 'no-such-bot', null]) {
      const revoked = await service.request('GET', '/v1/files', { token: viewer, botId })
      expect(revoked.status, String(botId)).toBe(401)
      expect(revoked.body.type).toBe('Unauthorized')
    }
  })

  it('leaves bot-bound tokens bound to their bot, and says why another bot is refused', async () => {
    for (const caller of ['bot', 'developer', 'alpha'] as const) {
      const other = await service.request('GET', '/v1/files', { token: caller, botId: service.otherBotId })
      expect(other.status, caller).toBe(403)
      expect(other.body.message).toBe(`This token has no access to bot "${service.otherBotId}": it is bound to another bot`)
      expect((await service.request('GET', '/v1/files', { token: caller })).status).toBe(200)
    }
  })

  it('admin: creates only member roles workspace-wide, and lists the scope', async () => {
    const create = (input: unknown) => service.app.admin.createToken(input as never)
    await expect(create({ workspace: true, role: 'bot' })).rejects.toThrow(/A workspace token takes a member role \(viewer, developer, manager, administrator, billing_manager\); received "bot"/)
    await expect(create({ workspace: true, role: 'integration', integrationName: 'slack' })).rejects.toThrow(/received "integration"/)
    await expect(create({ workspace: true, role: 'viewer', botId: service.botId })).rejects.toThrow(/A workspace token is not bound to a bot/)
    await expect(create({ workspace: 'yes', role: 'viewer', botId: service.botId })).rejects.toThrow(/workspace: expected true or false, received "yes"/)
    await expect(create({ role: 'viewer' })).rejects.toThrow(/needs a bot \(botId\) or workspace: true/)
    const refused = await create({ workspace: true, role: 'bot' }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AuthStoreError)
    expect((refused as AuthStoreError).code).toBe('INVALID_ROLE')

    const created = await service.app.admin.createToken({ workspace: true, role: 'manager', label: 'ops' })
    expect(created).toMatchObject({ scope: 'workspace', botId: null, workspaceId: expect.stringMatching(/^wkspace_/), role: 'manager', userId: expect.stringMatching(/^user_/) })
    const listed = (await service.app.admin.listTokens()).find((t) => t.id === created.id)
    expect(listed).toEqual(expect.objectContaining({ id: created.id, scope: 'workspace', botId: null, workspaceId: created.workspaceId, label: 'ops', revokedAt: null }))
    expect(JSON.stringify(listed)).not.toContain(created.token)
    const bound = await service.app.admin.createToken({ botId: service.botId, role: 'viewer' })
    expect(bound).toMatchObject({ scope: 'bot', botId: service.botId, workspaceId: null })
    // `botId` filter: the tokens that reach the bot, so workspace tokens appear for both bots, bound ones for theirs.
    expect((await service.app.admin.listTokens({ botId: service.otherBotId })).map((t) => t.id)).toContain(created.id)
    expect((await service.app.admin.listTokens({ botId: service.otherBotId })).map((t) => t.id)).not.toContain(bound.id)
  })
})

describe('auth migration auth-0002 (workspace tokens)', () => {
  const dirs: string[] = []
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })

  it('upgrades a data folder written with the old schema: bot tokens keep working, workspace tokens can be added', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-upgrade-'))
    dirs.push(dataDir)
    // The schema of the previous version: only the first auth migration (plus the unchanged feature migrations).
    const oldAuth = authMigrations.filter((m) => m.id === 'auth-0001-workspace-bots-tokens')
    expect(oldAuth.map((m) => m.id)).toEqual(['auth-0001-workspace-bots-tokens'])
    const db = openDatabase(join(dataDir, 'botshelf.db'))
    runMigrations(db, [...oldAuth, ...filesMigrations, ...tablesMigrations])
    const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')
    const at = '2026-11-01T00:00:00.000Z'
    db.prepare('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run('wkspace_old', 'default', at)
    const insertBot = db.prepare('INSERT INTO bots (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)')
    insertBot.run('bot-a', 'wkspace_old', 'a', at)
    insertBot.run('bot-b', 'wkspace_old', 'b', at)
    // Rows as the old AuthStore wrote them (same columns, same hash).
    const insertToken = db.prepare(
      'INSERT INTO tokens (id, hash, bot_id, role, integration_name, user_id, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    insertToken.run('tok_bot', hash('bs_old_bot'), 'bot-a', 'bot', null, null, 'first start', at, null)
    insertToken.run('tok_int', hash('bs_old_int'), 'bot-a', 'integration', 'slack', null, null, at, null)
    insertToken.run('tok_dev', hash('bs_old_dev'), 'bot-b', 'developer', null, 'user_old', null, at, null)
    insertToken.run('tok_gone', hash('bs_old_gone'), 'bot-a', 'bot', null, null, null, at, at)
    db.close()

    const app = await createApp({ dataDir, logger: silentLogger })
    const call = (token: string, botId: string) =>
      app.fetch(new Request('http://x/v1/files', { headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId } }))
    try {
      expect((await call('bs_old_bot', 'bot-a')).status).toBe(200)
      expect((await call('bs_old_int', 'bot-a')).status).toBe(200)
      expect((await call('bs_old_dev', 'bot-b')).status).toBe(200)
      expect((await call('bs_old_bot', 'bot-b')).status).toBe(403)
      expect((await call('bs_old_dev', 'bot-a')).status).toBe(403)
      expect((await call('bs_old_gone', 'bot-a')).status).toBe(401)
      expect(await app.admin.listTokens()).toEqual([
        expect.objectContaining({ id: 'tok_bot', scope: 'bot', botId: 'bot-a', workspaceId: null, label: 'first start', revokedAt: null }),
        expect.objectContaining({ id: 'tok_dev', scope: 'bot', botId: 'bot-b', role: 'developer', userId: 'user_old' }),
        expect.objectContaining({ id: 'tok_gone', scope: 'bot', revokedAt: at }),
        expect.objectContaining({ id: 'tok_int', scope: 'bot', integrationName: 'slack' }),
      ])
      const { token } = await app.admin.createToken({ workspace: true, role: 'developer' })
      expect((await call(token, 'bot-a')).status).toBe(200)
      expect((await call(token, 'bot-b')).status).toBe(200)
      expect((await app.admin.listTokens({ botId: 'bot-a' })).map((t) => t.id)).toHaveLength(4)
    } finally {
      await app.close()
    }

    const check = openDatabase(join(dataDir, 'botshelf.db'))
    try {
      const applied = check.prepare('SELECT id FROM _migrations').pluck().all()
      expect(applied).toContain('auth-0002-workspace-tokens')
      expect(check.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok')
      expect(check.prepare('PRAGMA foreign_key_check').all()).toEqual([])
      // The table keeps exactly one binding per token.
      expect(() =>
        check.prepare("INSERT INTO tokens (id, hash, bot_id, workspace_id, role, created_at) VALUES ('x', 'h', 'bot-a', 'wkspace_old', 'viewer', 'now')").run(),
      ).toThrow(/CHECK constraint failed/)
    } finally {
      check.close()
    }
  })
})
