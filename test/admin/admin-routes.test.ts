import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

describe('admin routes: /v1/whoami, /v1/admin/bots, /v1/admin/tokens, /v1/console/sign-in', () => {
  let service: TestService
  let admin: string
  let workspaceViewer: string

  beforeAll(async () => {
    service = await startTestService()
    admin = (await service.app.admin.createToken({ workspace: true, role: 'administrator' })).token
    workspaceViewer = (await service.app.admin.createToken({ workspace: true, role: 'viewer' })).token
  })
  afterAll(async () => {
    await service.close()
  })

  it('whoami names the token, its role and scope and the bots it reaches, without x-bot-id', async () => {
    const asBot = await service.request('GET', '/v1/whoami', { token: 'bot', botId: null })
    expect(asBot.status).toBe(200)
    expect(asBot.body).toMatchObject({ scope: 'bot', kind: 'bot', role: 'bot', canAdminister: false })
    expect(asBot.body.bots.map((b: { id: string }) => b.id)).toEqual([service.botId])

    const other = await service.request('GET', '/v1/whoami', { token: 'otherBot', botId: null })
    expect(other.body.bots.map((b: { id: string }) => b.id)).toEqual([service.otherBotId])

    const asAdmin = await service.request('GET', '/v1/whoami', { token: admin, botId: null })
    expect(asAdmin.body).toMatchObject({ scope: 'workspace', kind: 'member', role: 'administrator', canAdminister: true })
    // Bots created in the same millisecond have no order between them: compare as sets.
    expect(asAdmin.body.bots.map((b: { id: string }) => b.id).sort()).toEqual([service.botId, service.otherBotId].sort())
  })

  it('refuses a missing or unknown token with the wire error body', async () => {
    const missing = await service.request('GET', '/v1/whoami', { token: null, botId: null })
    expect(missing.status).toBe(401)
    expect(missing.body).toMatchObject({ code: 401, type: 'Unauthorized', message: expect.stringContaining('Missing bearer token') })
    const unknown = await service.request('GET', '/v1/admin/tokens', { token: 'bs_not-a-token', botId: null })
    expect(unknown.status).toBe(401)
    expect(unknown.body.message).toBe('Unknown or revoked token')
  })

  it('lets only a workspace administrator manage: bot tokens, bot-bound administrators and workspace viewers get 403', async () => {
    for (const token of ['bot', 'administrator', 'alpha', workspaceViewer]) {
      const res = await service.request('GET', '/v1/admin/tokens', { token, botId: null })
      expect(res.status, String(token)).toBe(403)
      expect(res.body).toMatchObject({ type: 'Forbidden', message: expect.stringContaining('workspace administrator') })
    }
    const revoke = await service.request('DELETE', `/v1/admin/tokens/whatever`, { token: 'administrator', botId: null })
    expect(revoke.status).toBe(403)
  })

  it('creates a token shown once, lists it without the secret, and revokes it so it stops working', async () => {
    const created = await service.request('POST', '/v1/admin/tokens', { token: admin, botId: null, body: { botId: service.botId, role: 'viewer', label: 'dashboard' } })
    expect(created.status).toBe(200)
    expect(created.body.token).toMatchObject({ scope: 'bot', botId: service.botId, role: 'viewer', label: 'dashboard', revokedAt: null })
    const secret: string = created.body.token.token
    expect(secret).toMatch(/^bs_/)

    const listed = await service.request('GET', '/v1/admin/tokens', { token: admin, botId: null })
    const row = listed.body.tokens.find((t: { id: string }) => t.id === created.body.token.id)
    expect(row).toMatchObject({ label: 'dashboard', role: 'viewer' })
    expect(row).not.toHaveProperty('token')
    expect(JSON.stringify(listed.body)).not.toContain(secret)

    expect((await service.request('GET', '/v1/files', { token: secret })).status).toBe(200)
    const revoked = await service.request('DELETE', `/v1/admin/tokens/${created.body.token.id}`, { token: admin, botId: null })
    expect(revoked.status).toBe(200)
    expect(revoked.body.token.revokedAt).toEqual(expect.any(String))
    expect((await service.request('GET', '/v1/files', { token: secret })).status).toBe(401)

    const active = await service.request('GET', '/v1/admin/tokens', { token: admin, botId: null })
    expect(active.body.tokens.some((t: { id: string }) => t.id === created.body.token.id)).toBe(false)
    const all = await service.request('GET', '/v1/admin/tokens', { token: admin, botId: null, query: { all: 'true' } })
    expect(all.body.tokens.some((t: { id: string }) => t.id === created.body.token.id)).toBe(true)
  })

  it('creates workspace tokens and bots; bad input names the field, an unknown bot or token is 404', async () => {
    const ws = await service.request('POST', '/v1/admin/tokens', { token: admin, botId: null, body: { workspace: true, role: 'developer' } })
    expect(ws.body.token).toMatchObject({ scope: 'workspace', role: 'developer', botId: null })

    const badRole = await service.request('POST', '/v1/admin/tokens', { token: admin, botId: null, body: { botId: service.botId, role: 'owner' } })
    expect(badRole.status).toBe(400)
    expect(badRole.body).toMatchObject({ type: 'InvalidPayload', message: expect.stringContaining('role') })

    const wsBot = await service.request('POST', '/v1/admin/tokens', { token: admin, botId: null, body: { workspace: true, role: 'bot' } })
    expect(wsBot.status).toBe(400)

    const unknownBot = await service.request('POST', '/v1/admin/tokens', { token: admin, botId: null, body: { botId: 'no-such-bot', role: 'bot' } })
    expect(unknownBot.status).toBe(404)
    expect(unknownBot.body.metadata).toMatchObject({ code: 'UNKNOWN_BOT' })

    const unknownToken = await service.request('DELETE', '/v1/admin/tokens/tok_nope', { token: admin, botId: null })
    expect(unknownToken.status).toBe(404)
    expect(unknownToken.body.message).toContain('tok_nope')

    const bot = await service.request('POST', '/v1/admin/bots', { token: admin, botId: null, body: { name: 'sales' } })
    expect(bot.body.bot).toMatchObject({ name: 'sales' })
    const bots = await service.request('GET', '/v1/admin/bots', { token: admin, botId: null })
    expect(bots.body.bots.map((b: { name: string }) => b.name)).toContain('sales')
    // Every list answers meta (the bp CLI and the official client read meta.nextToken without a guard).
    expect(bots.body.meta).toEqual({})
    expect((await service.request('GET', '/v1/admin/tokens', { token: admin, botId: null })).body.meta).toEqual({})
    const one = await service.request('GET', `/v1/admin/bots/${bot.body.bot.id}`, { token: admin, botId: null })
    expect(one.body.bot).toEqual(bot.body.bot)
    const none = await service.request('GET', '/v1/admin/bots/no-such-bot', { token: admin, botId: null })
    expect(none.status).toBe(404)
    expect(none.body).toMatchObject({ type: 'ResourceNotFound', message: 'No bot with id "no-such-bot"' })
  })

  it('redeems a sign-in code once for a workspace administrator token; a used or made-up code is 401', async () => {
    const { code } = service.app.admin.issueSignInCode()
    const first = await service.request('POST', '/v1/console/sign-in', { token: null, botId: null, body: { code } })
    expect(first.status).toBe(200)
    expect(first.body.bots.length).toBeGreaterThan(0)
    const me = await service.request('GET', '/v1/whoami', { token: first.body.token, botId: null })
    expect(me.body).toMatchObject({ scope: 'workspace', role: 'administrator', canAdminister: true, tokenId: first.body.tokenId })

    const again = await service.request('POST', '/v1/console/sign-in', { token: null, botId: null, body: { code } })
    expect(again.status).toBe(401)
    expect(again.body.message).toContain('already used')
    const missing = await service.request('POST', '/v1/console/sign-in', { token: null, botId: null, body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toContain('code')
  })
})

describe('admin routes: rate limits', () => {
  it('count whoami and /v1/admin against the per-token bucket, and the sign-in against the per-address one', async () => {
    const at = new Date('2026-05-01T10:00:00Z')
    const service = await startTestService({ listen: true, now: () => at, rateLimit: { token: { perSecond: 1, burst: 2 }, ip: { perSecond: 1, burst: 2 } } })
    try {
      const admin = (await service.app.admin.createToken({ workspace: true, role: 'administrator' })).token
      const statuses = []
      for (const path of ['/v1/whoami', '/v1/admin/tokens', '/v1/admin/bots']) statuses.push((await service.request('GET', path, { token: admin, botId: null })).status)
      expect(statuses).toEqual([200, 200, 429])
      const limited = await service.request('GET', '/v1/admin/bots', { token: admin, botId: null })
      expect(limited.body).toMatchObject({ type: 'RateLimited' })
      expect(limited.headers.get('retry-after')).toEqual(expect.any(String))

      const signIns = []
      for (let i = 0; i < 3; i += 1) signIns.push((await service.request('POST', '/v1/console/sign-in', { token: null, botId: null, body: { code: 'made-up' } })).status)
      expect(signIns).toEqual([401, 401, 429])
    } finally {
      await service.close()
    }
  })
})
