import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memberRoles, type MemberRole } from 'botshelf/api'
import type { Backend } from '../backend.js'
import type { Clock } from '../clock.js'
import type { AuthPort } from './auth-port.js'
import { AuthStoreError } from './errors.js'
import type { CreateTokenInput, CreatedToken, TokenRecord } from './types.js'

const START = Date.parse('2026-04-01T09:00:00.000Z')
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const SECRET = /^bs_[A-Za-z0-9_-]{43}$/

/** Milliseconds of an ISO time, so the suite does not depend on how a backend formats its strings. */
function ms(iso: string | null): number {
  if (iso === null) throw new Error('expected a time, received null')
  return Date.parse(iso)
}

/** A created token without its secret: what `listTokens` must show for it. */
function listed(created: CreatedToken): TokenRecord {
  const { token: _secret, ...record } = created
  return record
}

/** The `AuthStoreError` a call rejected with, failing the test when it resolved or threw something else. */
async function authError(call: Promise<unknown>): Promise<AuthStoreError> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to reject with an AuthStoreError, but it resolved')
    },
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(AuthStoreError)
  return error as AuthStoreError
}

/**
 * Declares the behaviour every `AuthPort` backend must have (workspace, bots, hashed tokens of every role and
 * scope, authentication outcomes, revocation, listing filters, input errors, the signing key), as vitest
 * `describe`/`it` blocks written against the port only. `open` gets the suite's clock (a fake one it moves by
 * hand) and returns a fresh, empty, migrated backend; `close` runs after each test.
 *
 * @example
 * ```ts
 * describeAuthPortContract('sqlite-memory', async (now) => {
 *   const backend = await openSqliteBackend({ memory: true, now })
 *   return { backend, close: () => backend.close() }
 * })
 * ```
 */
export function describeAuthPortContract(name: string, open: (now: Clock) => Promise<{ backend: Backend; close(): Promise<void> }>): void {
  describe(`AuthPort contract: ${name}`, () => {
    let current = START
    const now: Clock = () => new Date(current)
    const advance = (by: number): void => {
      current += by
    }
    let auth: AuthPort
    let close: () => Promise<void>

    beforeEach(async () => {
      current = START
      // A backend that failed to open has nothing to close.
      close = async () => {}
      const opened = await open(now)
      auth = opened.backend.auth
      close = opened.close
    })
    afterEach(async () => {
      await close()
    })

    describe('workspace and bots', () => {
      it('creates the single workspace once, even when asked many times at once', async () => {
        const ids = await Promise.all(Array.from({ length: 6 }, () => auth.ensureWorkspace()))
        expect(new Set(ids).size).toBe(1)
        expect(ids[0]).toEqual(expect.any(String))
        expect(ids[0]!.length).toBeGreaterThan(0)
        advance(60_000)
        expect(await auth.ensureWorkspace()).toBe(ids[0])
      })

      it('creates bots in that workspace: a UUID id unless given, the name, the clock time', async () => {
        const bot = await auth.createBot({ name: 'support' })
        expect(bot.id).toMatch(UUID)
        expect(bot).toMatchObject({ name: 'support', workspaceId: await auth.ensureWorkspace() })
        expect(ms(bot.createdAt)).toBe(START)

        const given = await auth.createBot({ id: 'bot_fixed', name: 'sales' })
        expect(given).toMatchObject({ id: 'bot_fixed', name: 'sales', workspaceId: bot.workspaceId })
        const unnamed = await auth.createBot()
        expect(unnamed.id).toMatch(UUID)
        expect(unnamed.name).toEqual(expect.any(String))
        expect(new Set([bot.id, given.id, unnamed.id]).size).toBe(3)
      })

      it('finds a bot by id, and nothing for an unknown id', async () => {
        const bot = await auth.createBot({ name: 'support' })
        expect(await auth.getBot(bot.id)).toEqual(bot)
        expect(await auth.getBot('7f0c5c3e-0000-4000-8000-000000000000')).toBeUndefined()
      })

      it('lists every bot, oldest first', async () => {
        expect(await auth.listBots()).toEqual([])
        const created = []
        for (const name of ['zeta', 'alpha', 'mid']) {
          created.push(await auth.createBot({ name }))
          advance(1_000)
        }
        // A given id that sorts first must not jump ahead of older bots.
        created.push(await auth.createBot({ id: '00000000-0000-4000-8000-000000000000', name: 'last' }))
        expect(await auth.listBots()).toEqual(created)
      })
    })

    describe('tokens', () => {
      it('creates a bot token bound to one bot: a secret shown once, the record without it', async () => {
        const bot = await auth.createBot({ name: 'support' })
        advance(500)
        const created = await auth.createToken({ botId: bot.id, role: 'bot', label: 'ci' })
        expect(created.token).toMatch(SECRET)
        expect(created).toMatchObject({
          scope: 'bot',
          botId: bot.id,
          workspaceId: null,
          role: 'bot',
          integrationName: null,
          userId: null,
          label: 'ci',
          revokedAt: null,
        })
        expect(created.id).toEqual(expect.any(String))
        expect(ms(created.createdAt)).toBe(START + 500)
        expect(await auth.listTokens()).toEqual([listed(created)])
      })

      it('creates an integration token with its integration name', async () => {
        const bot = await auth.createBot()
        const created = await auth.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' })
        expect(created).toMatchObject({ scope: 'bot', botId: bot.id, role: 'integration', integrationName: 'slack', userId: null, label: null })
      })

      it('creates member tokens of every member role bound to a bot, each standing for its own user', async () => {
        const bot = await auth.createBot()
        const tokens = []
        for (const role of memberRoles) tokens.push(await auth.createToken({ botId: bot.id, role }))
        for (const [i, token] of tokens.entries()) {
          expect(token).toMatchObject({ scope: 'bot', botId: bot.id, workspaceId: null, role: memberRoles[i], integrationName: null })
          expect(token.userId).toEqual(expect.any(String))
        }
        expect(new Set(tokens.map((t) => t.userId)).size).toBe(memberRoles.length)
      })

      it('creates workspace member tokens that belong to the workspace, not to a bot', async () => {
        const workspaceId = await auth.ensureWorkspace()
        for (const role of memberRoles) {
          const created = await auth.createToken({ workspace: true, role, label: `all bots (${role})` })
          expect(created).toMatchObject({ scope: 'workspace', botId: null, workspaceId, role, integrationName: null, label: `all bots (${role})` })
          expect(created.userId).toEqual(expect.any(String))
          expect(created.token).toMatch(SECRET)
        }
      })

      it('gives every token its own id and secret, and keeps only a hash: no secret is ever listed', async () => {
        const bot = await auth.createBot()
        const created = [
          await auth.createToken({ botId: bot.id, role: 'bot' }),
          await auth.createToken({ botId: bot.id, role: 'bot' }),
          await auth.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' }),
          await auth.createToken({ botId: bot.id, role: 'developer' }),
          await auth.createToken({ workspace: true, role: 'administrator' }),
        ]
        expect(new Set(created.map((t) => t.id)).size).toBe(created.length)
        expect(new Set(created.map((t) => t.token)).size).toBe(created.length)
        const everything = JSON.stringify([await auth.listTokens(), await auth.listTokens({ botId: bot.id }), await auth.listBots()])
        for (const { token } of created) {
          expect(everything).not.toContain(token)
          expect(everything).not.toContain(token.slice(3))
        }
        for (const record of await auth.listTokens()) expect(record).not.toHaveProperty('token')
      })
    })

    describe('authenticate', () => {
      it('resolves a bot token to the bot principal', async () => {
        const bot = await auth.createBot()
        const created = await auth.createToken({ botId: bot.id, role: 'bot' })
        expect(await auth.authenticate(created.token, bot.id)).toEqual({ ok: true, scope: 'bot', principal: { kind: 'bot', botId: bot.id, tokenId: created.id } })
      })

      it('resolves an integration token to the integration principal', async () => {
        const bot = await auth.createBot()
        const created = await auth.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' })
        expect(await auth.authenticate(created.token, bot.id)).toEqual({
          ok: true,
          scope: 'bot',
          principal: { kind: 'integration', botId: bot.id, integrationName: 'slack', tokenId: created.id },
        })
      })

      it('resolves a bot-bound member token to a member principal with its role and user', async () => {
        const bot = await auth.createBot()
        for (const role of memberRoles) {
          const created = await auth.createToken({ botId: bot.id, role })
          expect(await auth.authenticate(created.token, bot.id)).toEqual({
            ok: true,
            scope: 'bot',
            principal: { kind: 'member', botId: bot.id, role, userId: created.userId, tokenId: created.id },
          })
        }
      })

      it('resolves a workspace token for any bot of the workspace, as a member of the bot named', async () => {
        const first = await auth.createBot({ name: 'first' })
        const created = await auth.createToken({ workspace: true, role: 'viewer' })
        const later = await auth.createBot({ name: 'created after the token' })
        for (const bot of [first, later]) {
          expect(await auth.authenticate(created.token, bot.id)).toEqual({
            ok: true,
            scope: 'workspace',
            principal: { kind: 'member', botId: bot.id, role: 'viewer' satisfies MemberRole, userId: created.userId, tokenId: created.id },
          })
        }
      })

      it('answers unknown_token for a secret it never issued, even one differing by a character', async () => {
        const bot = await auth.createBot()
        const created = await auth.createToken({ botId: bot.id, role: 'bot' })
        const last = created.token.at(-1)
        const altered = created.token.slice(0, -1) + (last === 'A' ? 'B' : 'A')
        expect(await auth.authenticate(altered, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
        expect(await auth.authenticate('bs_' + 'x'.repeat(43), bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
        expect(await auth.authenticate('', bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
      })

      it('answers wrong_bot for a bot-bound token used for another bot', async () => {
        const mine = await auth.createBot()
        const other = await auth.createBot()
        for (const input of [
          { botId: mine.id, role: 'bot' },
          { botId: mine.id, role: 'integration', integrationName: 'slack' },
          { botId: mine.id, role: 'administrator' },
        ] satisfies CreateTokenInput[]) {
          const created = await auth.createToken(input)
          expect(await auth.authenticate(created.token, other.id)).toEqual({ ok: false, reason: 'wrong_bot' })
          expect(await auth.authenticate(created.token, 'no-such-bot')).toEqual({ ok: false, reason: 'wrong_bot' })
        }
      })

      it('answers unknown_bot for a workspace token and a bot that is not in the workspace', async () => {
        await auth.createBot()
        const created = await auth.createToken({ workspace: true, role: 'developer' })
        expect(await auth.authenticate(created.token, 'no-such-bot')).toEqual({ ok: false, reason: 'unknown_bot' })
      })

      it('answers unknown_token once a token is revoked, for bot and workspace tokens alike', async () => {
        const bot = await auth.createBot()
        const bound = await auth.createToken({ botId: bot.id, role: 'bot' })
        const workspace = await auth.createToken({ workspace: true, role: 'manager' })
        const kept = await auth.createToken({ botId: bot.id, role: 'bot' })
        await auth.revokeToken(bound.id)
        await auth.revokeToken(workspace.id)
        expect(await auth.authenticate(bound.token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
        expect(await auth.authenticate(workspace.token, bot.id)).toEqual({ ok: false, reason: 'unknown_token' })
        expect(await auth.authenticate(kept.token, bot.id)).toMatchObject({ ok: true, principal: { tokenId: kept.id } })
      })
    })

    describe('revokeToken', () => {
      it('stamps revokedAt with the clock and returns the record; revoking again keeps the first time', async () => {
        const bot = await auth.createBot()
        const created = await auth.createToken({ botId: bot.id, role: 'bot', label: 'old' })
        advance(2_000)
        const revoked = await auth.revokeToken(created.id)
        expect(revoked).toEqual({ ...listed(created), revokedAt: revoked.revokedAt })
        expect(ms(revoked.revokedAt)).toBe(START + 2_000)
        advance(2_000)
        const again = await auth.revokeToken(created.id)
        expect(ms(again.revokedAt)).toBe(START + 2_000)
        expect(await auth.listTokens()).toEqual([revoked])
      })

      it('refuses an unknown token id with UNKNOWN_TOKEN', async () => {
        const error = await authError(auth.revokeToken('tok_missing'))
        expect(error.code).toBe('UNKNOWN_TOKEN')
        expect(error.message).toContain('tok_missing')
      })
    })

    describe('listTokens', () => {
      it('lists every token oldest first, revoked ones included unless activeOnly', async () => {
        const bot = await auth.createBot()
        const a = await auth.createToken({ botId: bot.id, role: 'bot' })
        advance(1_000)
        const b = await auth.createToken({ workspace: true, role: 'viewer' })
        advance(1_000)
        const c = await auth.createToken({ botId: bot.id, role: 'integration', integrationName: 'slack' })
        advance(1_000)
        const revokedB = await auth.revokeToken(b.id)
        expect(await auth.listTokens()).toEqual([listed(a), revokedB, listed(c)])
        expect(await auth.listTokens({ activeOnly: true })).toEqual([listed(a), listed(c)])
        expect(await auth.listTokens({ activeOnly: false })).toEqual([listed(a), revokedB, listed(c)])
      })

      it('keeps, for a bot, the tokens bound to it and the workspace tokens, never another bot\'s', async () => {
        const mine = await auth.createBot({ name: 'mine' })
        const other = await auth.createBot({ name: 'other' })
        const bound = await auth.createToken({ botId: mine.id, role: 'bot' })
        advance(1_000)
        const foreign = await auth.createToken({ botId: other.id, role: 'bot' })
        advance(1_000)
        const workspace = await auth.createToken({ workspace: true, role: 'developer' })
        advance(1_000)
        const member = await auth.createToken({ botId: mine.id, role: 'viewer' })
        await auth.revokeToken(member.id)
        const memberRevoked = (await auth.listTokens()).find((t) => t.id === member.id)!

        expect(await auth.listTokens({ botId: mine.id })).toEqual([listed(bound), listed(workspace), memberRevoked])
        expect(await auth.listTokens({ botId: mine.id, activeOnly: true })).toEqual([listed(bound), listed(workspace)])
        expect(await auth.listTokens({ botId: other.id })).toEqual([listed(foreign), listed(workspace)])
        expect(await auth.listTokens({ botId: 'no-such-bot' })).toEqual([])
      })
    })

    describe('bad input', () => {
      it('refuses with a stable code and stores nothing', async () => {
        const bot = await auth.createBot()
        const cases: Array<[unknown, AuthStoreError['code']]> = [
          [{ botId: bot.id, role: 'owner' }, 'INVALID_ROLE'],
          [{ workspace: true, role: 'bot' }, 'INVALID_ROLE'],
          [{ workspace: true, role: 'integration', integrationName: 'slack' }, 'INVALID_ROLE'],
          [{ botId: bot.id, role: 'integration' }, 'INVALID_INTEGRATION'],
          [{ botId: bot.id, role: 'integration', integrationName: '' }, 'INVALID_INTEGRATION'],
          [{ botId: bot.id, role: 'integration', integrationName: 'has space' }, 'INVALID_INTEGRATION'],
          [{ botId: bot.id, role: 'integration', integrationName: 'x'.repeat(101) }, 'INVALID_INTEGRATION'],
          [{ botId: bot.id, role: 'bot', integrationName: 'slack' }, 'INVALID_INTEGRATION'],
          [{ workspace: true, role: 'developer', integrationName: 'slack' }, 'INVALID_INTEGRATION'],
          [{ botId: 'no-such-bot', role: 'bot' }, 'UNKNOWN_BOT'],
          [{ botId: 'no-such-bot', role: 'developer' }, 'UNKNOWN_BOT'],
          [{ workspace: true, role: 'developer', botId: bot.id }, 'INVALID_SCOPE'],
          [{ role: 'developer' }, 'INVALID_SCOPE'],
          [{ botId: bot.id, role: 'bot', workspace: 'yes' }, 'INVALID_SCOPE'],
        ]
        for (const [input, code] of cases) {
          const error = await authError(auth.createToken(input as CreateTokenInput))
          expect({ input, code: error.code }).toEqual({ input, code })
          expect(error.message.length).toBeGreaterThan(0)
        }
        expect(await auth.listTokens()).toEqual([])
      })

      it('accepts the longest and the most varied integration names', async () => {
        const bot = await auth.createBot()
        for (const integrationName of ['x'.repeat(100), 'a', 'my-org/slack_v2.1']) {
          expect((await auth.createToken({ botId: bot.id, role: 'integration', integrationName })).integrationName).toBe(integrationName)
        }
      })
    })

    describe('signingKey', () => {
      it('is 32 bytes, the same on every call', async () => {
        const key = await auth.signingKey()
        expect(Buffer.isBuffer(key)).toBe(true)
        expect(key).toHaveLength(32)
        expect(key.equals(Buffer.alloc(32))).toBe(false)
        advance(60_000)
        expect((await auth.signingKey()).equals(key)).toBe(true)
      })

      it('adopts a seed on the first call only', async () => {
        const seed = Buffer.alloc(32, 7)
        expect((await auth.signingKey(seed)).equals(seed)).toBe(true)
        expect((await auth.signingKey(Buffer.alloc(32, 9))).equals(seed)).toBe(true)
        expect((await auth.signingKey()).equals(seed)).toBe(true)
      })

      it('ignores a seed once a key exists, and agrees on one key when first asked many times at once', async () => {
        const keys = await Promise.all([1, 2, 3, 4].map((fill) => auth.signingKey(Buffer.alloc(32, fill))))
        expect(keys.every((key) => key.equals(keys[0]!))).toBe(true)
        const random = await auth.signingKey()
        expect(random.equals(keys[0]!)).toBe(true)
      })

      it('hands out a copy: changing the returned buffer does not change the key', async () => {
        const key = await auth.signingKey(Buffer.alloc(32, 3))
        key.fill(0)
        expect((await auth.signingKey()).equals(Buffer.alloc(32, 3))).toBe(true)
      })
    })
  })
}
