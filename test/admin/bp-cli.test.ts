import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

const run = promisify(execFile)
const bpBin = createRequire(import.meta.url).resolve('@botpress/cli/bin.js')

// The registry's bp CLI (@botpress/cli, pinned in devDependencies) against botshelf: the commands that fit the
// wire (login, bots ls/get/create) work; the others are listed in docs/cli.md ("The bp CLI").
describe('the bp CLI (@botpress/cli) against botshelf', () => {
  let service: TestService
  let home: string
  let admin: { token: string; workspaceId: string | null }

  const bp = async (...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [bpBin, ...args, '--botpressHome', home], { timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } })
      return { stdout, stderr, code: 0 }
    } catch (error) {
      const failed = error as { stdout: string; stderr: string; code: number }
      return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code }
    }
  }

  beforeAll(async () => {
    service = await startTestService({ listen: true })
    home = await mkdtemp(join(tmpdir(), 'botshelf-bp-home-'))
    admin = await service.app.admin.createToken({ workspace: true, role: 'administrator' })
  })
  afterAll(async () => {
    await service?.close()
    if (home) await rm(home, { recursive: true, force: true })
  })

  it('logs in with --apiUrl, then bp bots ls lists the workspace\'s bots', { timeout: 60_000 }, async () => {
    const login = await bp('login', '--apiUrl', service.url, '--token', admin.token, '--workspaceId', admin.workspaceId!, '--confirm')
    expect(login.stdout + login.stderr).toContain('Logged In')
    expect(login.code).toBe(0)
    const listed = await bp('bots', 'ls', '--json')
    expect(listed.code).toBe(0)
    const bots = JSON.parse(listed.stdout) as Array<{ id: string }>
    expect(bots.map((bot) => bot.id).sort()).toEqual([service.botId, service.otherBotId].sort())
  })

  it('gets and creates bots; a command botshelf has no route for fails naming the route', { timeout: 60_000 }, async () => {
    const [got, created, deleted, integrations] = await Promise.all([
      bp('bots', 'get', service.botId, '--json'),
      bp('bots', 'create', '--name', 'from-bp', '--json'),
      bp('bots', 'delete', service.otherBotId),
      bp('integrations', 'ls', '--json'),
    ])
    expect(JSON.parse(got.stdout)).toMatchObject({ id: service.botId })
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'from-bp', id: expect.any(String) })
    expect((await service.app.admin.listBots()).map((bot) => bot.name)).toContain('from-bp')
    // Deleting a bot (and all its data) is not offered over the wire; nothing was deleted.
    expect(deleted.code).toBe(1)
    expect(deleted.stderr).toContain(`Method DELETE is not allowed on /v1/admin/bots/${service.otherBotId}; allowed: GET`)
    expect((await service.app.admin.listBots()).map((bot) => bot.id)).toContain(service.otherBotId)
    expect(integrations.code).toBe(1)
    expect(integrations.stderr).toContain('No route for GET /v1/admin/integrations')
  })
})
