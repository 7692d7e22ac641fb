import { createRequire } from 'node:module'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, uploadText } from './helpers.js'

// copyFile with x-destination-bot-id (docs/wire-format.md §7): the destination principal is the same token
// authenticated for the destination bot, so only workspace member tokens reach a second bot (decision 0208).
describe('copyFile across bots', () => {
  let service: TestService
  let workspace: Record<'developer' | 'viewer' | 'billing_manager', { token: string; userId: string }>

  beforeEach(async () => {
    service = await startTestService()
    const create = async (role: 'developer' | 'viewer' | 'billing_manager') => {
      const created = await service.app.admin.createToken({ workspace: true, role })
      return { token: created.token, userId: created.userId! }
    }
    workspace = { developer: await create('developer'), viewer: await create('viewer'), billing_manager: await create('billing_manager') }
    await uploadText(service, 'docs/source.txt', 'from bot A', { tags: { lang: 'en' } })
  })
  afterEach(async () => {
    await service.close()
  })

  function copy(token: string, path: string, body: Record<string, unknown> = {}, destination = service.otherBotId) {
    return service.request('POST', `/v1/files/${path}`, { token, body, headers: { 'x-destination-bot-id': destination } })
  }
  /** The files of the second bot, as its own bot token sees them. */
  async function otherBotKeys(): Promise<string[]> {
    const res = await service.request('GET', '/v1/files', { token: 'otherBot' })
    return (res.body.files as Array<{ key: string }>).map((f) => f.key).sort()
  }

  it('copies with a workspace developer token: content, key, owner and status in the destination bot', async () => {
    const res = await copy(workspace.developer.token, 'docs%2Fsource.txt/archive%2Fcopy.txt')
    expect(res.status).toBe(200)
    expect(res.body.file).toMatchObject({
      botId: service.otherBotId,
      key: 'archive/copy.txt',
      size: 10,
      status: 'upload_completed',
      tags: { lang: 'en' },
      owner: { type: 'user', id: workspace.developer.userId },
    })
    expect(await (await fetchUrl(service, res.body.file.url)).text()).toBe('from bot A')

    // The destination bot's own token sees the copy; the source bot keeps its file and gets no copy.
    const seen = await service.request('GET', '/v1/files/archive%2Fcopy.txt', { token: 'otherBot' })
    expect(seen.status).toBe(200)
    expect(seen.body.file.id).toBe(res.body.file.id)
    expect((await service.request('GET', '/v1/files/archive%2Fcopy.txt')).status).toBe(404)
    expect((await service.request('GET', '/v1/files/docs%2Fsource.txt')).status).toBe(200)

    // The copy owns its content: deleting the source leaves it readable.
    expect((await service.request('DELETE', '/v1/files/docs%2Fsource.txt')).status).toBe(200)
    const again = await service.request('GET', '/v1/files/archive%2Fcopy.txt', { token: workspace.developer.token, botId: service.otherBotId })
    expect(await (await fetchUrl(service, again.body.file.url)).text()).toBe('from bot A')
  })

  it('copies back the other way too (the source bot is the one in x-bot-id)', async () => {
    const there = await copy(workspace.developer.token, 'docs%2Fsource.txt/there.txt')
    expect(there.status).toBe(200)
    const back = await service.request('POST', '/v1/files/there.txt/back.txt', {
      token: workspace.developer.token,
      botId: service.otherBotId,
      body: {},
      headers: { 'x-destination-bot-id': service.botId },
    })
    expect(back.status).toBe(200)
    expect(back.body.file).toMatchObject({ botId: service.botId, key: 'back.txt', owner: { type: 'user', id: workspace.developer.userId } })
  })

  it('refuses a workspace viewer the destination write, and creates nothing', async () => {
    const res = await copy(workspace.viewer.token, 'docs%2Fsource.txt/viewer.txt')
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ type: 'Forbidden', message: 'This role may not create files (viewers read, search and list only)' })
    expect(await otherBotKeys()).toEqual([])
  })

  it('refuses a workspace billing manager (no access to files on the source side)', async () => {
    const res = await copy(workspace.billing_manager.token, 'docs%2Fsource.txt/billing.txt')
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('This role (billing_manager) has no access to files')
    expect(await otherBotKeys()).toEqual([])
  })

  it('refuses bot tokens and bot-bound member tokens, saying the token has no access to the destination bot', async () => {
    await uploadText(service, 'alpha.txt', 'integration file', {}, 'alpha') // an integration reads its own files
    for (const [caller, source] of [['bot', 'docs%2Fsource.txt'], ['developer', 'docs%2Fsource.txt'], ['alpha', 'alpha.txt']] as const) {
      const res = await copy(caller, `${source}/bound.txt`)
      expect(res.status, caller).toBe(403)
      expect(res.body.type).toBe('Forbidden')
      expect(res.body.message).toBe(
        `This token has no access to the destination bot "${service.otherBotId}": it is bound to one bot; ` +
          'copying across bots takes a workspace member token (botshelf token create --workspace)',
      )
    }
    expect(await otherBotKeys()).toEqual([])
  })

  it('answers an unknown destination bot with 403, like an unknown x-bot-id', async () => {
    const res = await copy(workspace.developer.token, 'docs%2Fsource.txt/x.txt', {}, 'no-such-bot')
    expect(res.status).toBe(403)
    expect(res.body.message).toBe('This token has no access to the destination bot "no-such-bot": no bot with that id in its workspace')
  })

  it('applies AlreadyExists and overwrite in the destination bot', async () => {
    const existing = await uploadText(service, 'shared.txt', 'old content of bot B', {}, 'otherBot')
    // The source bot has no "shared.txt": the conflict is looked up in the destination bot only.
    const refused = await copy(workspace.developer.token, 'docs%2Fsource.txt/shared.txt')
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ type: 'AlreadyExists', metadata: { id: existing.file.id } })

    const viewer = await copy(workspace.viewer.token, 'docs%2Fsource.txt/shared.txt', { overwrite: true })
    expect(viewer.status).toBe(403)
    expect(viewer.body.message).toBe('This caller may not overwrite file "shared.txt"')

    const overwritten = await copy(workspace.developer.token, 'docs%2Fsource.txt/shared.txt', { overwrite: true })
    expect(overwritten.status).toBe(200)
    expect(overwritten.body.file).toMatchObject({ botId: service.otherBotId, key: 'shared.txt', size: 10, status: 'upload_completed' })
    const read = await service.request('GET', '/v1/files/shared.txt', { token: 'otherBot' })
    expect(await (await fetchUrl(service, read.body.file.url)).text()).toBe('from bot A')
    expect(await otherBotKeys()).toEqual(['shared.txt'])
  })

  it('still copies inside one bot with a workspace token (no destination header, or the same bot)', async () => {
    const plain = await service.request('POST', '/v1/files/docs%2Fsource.txt/local.txt', { token: workspace.developer.token, body: {} })
    expect(plain.status).toBe(200)
    expect(plain.body.file).toMatchObject({ botId: service.botId, key: 'local.txt' })
    const same = await copy(workspace.developer.token, 'docs%2Fsource.txt/local2.txt', {}, service.botId)
    expect(same.status).toBe(200)
    expect(same.body.file.botId).toBe(service.botId)
  })
})

describe('copyFile across bots with the official @botpress/client', () => {
  let service: TestService
  beforeEach(async () => {
    service = await startTestService({ listen: true })
  })
  afterEach(async () => {
    await service.close()
  })

  it('sends x-destination-bot-id from the copyFile input, and a workspace token makes it succeed', async () => {
    const { Client } = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')
    const { token } = await service.app.admin.createToken({ workspace: true, role: 'developer' })
    const client = new Client({ apiUrl: service.url, token, botId: service.botId })
    await client.uploadFile({ key: 'report.txt', content: 'quarterly' })

    const { file } = await client.copyFile({ idOrKey: 'report.txt', destinationKey: 'archive/report.txt', 'x-destination-bot-id': service.otherBotId })
    expect(file).toMatchObject({ botId: service.otherBotId, key: 'archive/report.txt', size: 9, status: 'upload_completed' })
    const inOther = new Client({ apiUrl: service.url, token, botId: service.otherBotId })
    expect(await (await fetch((await inOther.getFile({ id: 'archive/report.txt' })).file.url)).text()).toBe('quarterly')

    const bound = service.botpressClient('bot')
    const refused = await bound
      .copyFile({ idOrKey: 'report.txt', destinationKey: 'archive/other.txt', 'x-destination-bot-id': service.otherBotId })
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ type: 'Forbidden', code: 403 })
    expect((refused as Error).message).toContain('it is bound to one bot')
  })
})
