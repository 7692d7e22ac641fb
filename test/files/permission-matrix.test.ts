import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestCaller, type TestService } from '../helpers/service.js'
import { uploadText } from './helpers.js'

/**
 * THE permission table (docs/wire-format.md §6). Rows: operation × file case; columns: callers.
 * 200 = allowed; 404 = the caller may not even see the file (or, for listings, it is left out);
 * 403 = refused (the caller may see the file but not do this, or its role has no access to files).
 * File cases: `botPrivate` (created by the bot, no policy), `alphaPrivate` (created by integration alpha, no
 * policy), `alphaShared` (created by alpha with the `integrations` policy), `userPrivate` (created by a developer,
 * no policy), `botPublic` (created by the bot with `public_content` only), `new` (a key that does not exist yet).
 * The last three columns are workspace member tokens (decision 0208): `wsViewer` and `wsDev` act in the fixture's
 * bot and must match the bot-bound `viewer` and `developer`; `wsDevOther` is the workspace developer acting in
 * the second bot (`x-bot-id`), which must see nothing of the first bot, like `otherBot`.
 */
type Expect = 200 | 403 | 404
type Case = 'botPrivate' | 'alphaPrivate' | 'alphaShared' | 'userPrivate' | 'botPublic' | 'new'
type Operation = 'getFile' | 'listFiles' | 'listFileTagValues' | 'updateFileMetadata' | 'deleteFile' | 'copyFile' | 'upsertFile' | 'searchFiles' | 'listFilePassages' | 'setFilePassages'
const callers = ['bot', 'alpha', 'beta', 'viewer', 'developer', 'manager', 'administrator', 'billing_manager', 'otherBot', 'wsViewer', 'wsDev', 'wsDevOther'] as const
type Caller = (typeof callers)[number]

//                                                          bot  alpha beta viewer dev  mgr  admin billing otherBot wsViewer wsDev wsDevOther
const table: Array<[Operation, Case, Expect[]]> = [
  ['getFile', 'botPrivate', /*                          */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['getFile', 'alphaPrivate', /*                        */ [200, 200, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['getFile', 'alphaShared', /*                         */ [200, 200, 200, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFiles', 'botPrivate', /*                        */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFiles', 'alphaPrivate', /*                      */ [200, 200, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFiles', 'alphaShared', /*                       */ [200, 200, 200, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFileTagValues', 'botPrivate', /*                */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFileTagValues', 'alphaPrivate', /*              */ [200, 200, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFileTagValues', 'alphaShared', /*               */ [200, 200, 200, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['updateFileMetadata', 'botPrivate', /*               */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['updateFileMetadata', 'alphaPrivate', /*             */ [200, 200, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['updateFileMetadata', 'alphaShared', /*              */ [200, 200, 403, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['deleteFile', 'botPrivate', /*                       */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['deleteFile', 'alphaPrivate', /*                     */ [200, 200, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['deleteFile', 'alphaShared', /*                      */ [200, 200, 403, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['copyFile', 'botPrivate', /*                         */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['copyFile', 'alphaPrivate', /*                       */ [200, 200, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['copyFile', 'alphaShared', /*                        */ [200, 200, 200, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['getFile', 'userPrivate', /*                         */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['getFile', 'botPublic', /*                           */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFiles', 'userPrivate', /*                       */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFiles', 'botPublic', /*                         */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['updateFileMetadata', 'userPrivate', /*              */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['deleteFile', 'userPrivate', /*                      */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['deleteFile', 'botPublic', /*                        */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['upsertFile', 'new', /*                              */ [200, 200, 200, 403, 200, 200, 200, 403, 200, 403, 200, 200]],
  // Search and passages: searching is a read (404 = the file's passages are left out of the results), setting
  // passages an update.
  ['searchFiles', 'botPrivate', /*                      */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['searchFiles', 'alphaPrivate', /*                    */ [200, 200, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['searchFiles', 'alphaShared', /*                     */ [200, 200, 200, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['searchFiles', 'userPrivate', /*                     */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFilePassages', 'botPrivate', /*                 */ [200, 404, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFilePassages', 'alphaPrivate', /*               */ [200, 200, 404, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['listFilePassages', 'alphaShared', /*                */ [200, 200, 200, 200, 200, 200, 200, 403, 404, 200, 200, 404]],
  ['setFilePassages', 'botPrivate', /*                  */ [200, 404, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['setFilePassages', 'alphaPrivate', /*                */ [200, 200, 404, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
  ['setFilePassages', 'alphaShared', /*                 */ [200, 200, 403, 403, 200, 200, 200, 403, 404, 403, 200, 404]],
]

let service: TestService
let counter = 0
let workspaceTokens: { viewer: string; developer: string }
beforeAll(async () => {
  service = await startTestService()
  workspaceTokens = {
    viewer: (await service.app.admin.createToken({ workspace: true, role: 'viewer' })).token,
    developer: (await service.app.admin.createToken({ workspace: true, role: 'developer' })).token,
  }
})

/** Request options naming a column's caller: a fixture caller, or a workspace token and the bot it acts in. */
function as(caller: Caller): { token: string; botId?: string } {
  if (caller === 'wsViewer') return { token: workspaceTokens.viewer, botId: service.botId }
  if (caller === 'wsDev') return { token: workspaceTokens.developer, botId: service.botId }
  if (caller === 'wsDevOther') return { token: workspaceTokens.developer, botId: service.otherBotId }
  return { token: caller satisfies TestCaller }
}
afterAll(async () => {
  await service.close()
})

async function makeFile(fileCase: Case): Promise<{ id: string; key: string; marker: string }> {
  const marker = `m${counter++}`
  const key = `${fileCase}-${marker}.txt`
  if (fileCase === 'new') return { id: '', key, marker }
  const creator: TestCaller = fileCase === 'userPrivate' ? 'developer' : fileCase.startsWith('bot') ? 'bot' : 'alpha'
  const accessPolicies = fileCase === 'alphaShared' ? ['integrations'] : fileCase === 'botPublic' ? ['public_content'] : []
  const { file, putStatus } = await uploadText(service, key, 'content', { tags: { marker }, accessPolicies }, creator)
  expect(putStatus).toBe(200)
  return { id: file.id, key, marker }
}

async function attempt(operation: Operation, caller: Caller, file: { id: string; key: string; marker: string }): Promise<number> {
  switch (operation) {
    case 'getFile':
      return (await service.request('GET', `/v1/files/${file.id}`, { ...as(caller) })).status
    case 'listFiles': {
      const res = await service.request('GET', '/v1/files', { ...as(caller), query: { tags: { marker: file.marker } } })
      if (res.status !== 200) return res.status
      return res.body.files.some((f: { id: string }) => f.id === file.id) ? 200 : 404
    }
    case 'listFileTagValues': {
      const res = await service.request('GET', '/v1/files/tags/marker/values', { ...as(caller), query: { pageSize: 100 } })
      if (res.status !== 200) return res.status
      let values: string[] = res.body.values
      let token = res.body.meta.nextToken
      while (token) {
        const next = await service.request('GET', '/v1/files/tags/marker/values', { ...as(caller), query: { pageSize: 100, nextToken: token } })
        values = values.concat(next.body.values)
        token = next.body.meta.nextToken
      }
      return values.includes(file.marker) ? 200 : 404
    }
    case 'updateFileMetadata':
      return (await service.request('PUT', `/v1/files/${file.id}`, { ...as(caller), body: { tags: { touched: 'yes' } } })).status
    case 'deleteFile':
      return (await service.request('DELETE', `/v1/files/${file.id}`, { ...as(caller) })).status
    case 'copyFile':
      return (await service.request('POST', `/v1/files/${file.id}/copy-${file.marker}.txt`, { ...as(caller), body: {} })).status
    case 'upsertFile':
      return (await service.request('PUT', '/v1/files', { ...as(caller), body: { key: file.key, size: 1 } })).status
    case 'searchFiles': {
      await service.backend.search.replacePassages({
        fileId: file.id,
        botId: service.botId,
        embedderId: null,
        passages: [{ content: `passage ${file.marker}`, subtype: 'paragraph', breadcrumb: [], vector: null }],
      })
      const res = await service.request('GET', '/v1/files/search', { ...as(caller), query: { query: file.marker } })
      if (res.status !== 200) return res.status
      return res.body.passages.some((p: { file: { id: string } }) => p.file.id === file.id) ? 200 : 404
    }
    case 'listFilePassages':
      return (await service.request('GET', `/v1/files/${file.id}/passages`, { ...as(caller) })).status
    case 'setFilePassages':
      return (await service.request('PUT', `/v1/files/${file.id}/passages`, { ...as(caller), body: { passages: [{ content: 'x' }] } })).status
  }
}

describe('permission matrix (one table, allow and deny)', () => {
  const cases = table.flatMap(([operation, fileCase, expected]) =>
    callers.map((caller, column) => [operation, fileCase, caller, expected[column]!] as const),
  )
  it.each(cases)('%s on %s by %s → %i', async (operation, fileCase, caller, expected) => {
    const file = await makeFile(fileCase)
    expect(await attempt(operation, caller, file)).toBe(expected)
  })

  it('leaves a denied file unchanged', async () => {
    const file = await makeFile('alphaShared')
    expect(await attempt('deleteFile', 'beta', file)).toBe(403)
    expect(await attempt('updateFileMetadata', 'viewer', file)).toBe(403)
    const res = await service.request('GET', `/v1/files/${file.id}`, { token: 'alpha' })
    expect(res.body.file.tags).toEqual({ marker: file.marker })
  })

  it('serves content to nobody without a valid URL, and public_content only through its permanent URL', async () => {
    const file = await makeFile('botPrivate')
    const anonymous = await service.request('GET', `/v1/files/${file.id}`, { token: null })
    expect(anonymous.status).toBe(401)
    const publicFile = await uploadText(service, `public-${counter++}.txt`, 'hi', { accessPolicies: ['public_content'] })
    const anonymousMeta = await service.request('GET', `/v1/files/${publicFile.file.id}`, { token: null })
    expect(anonymousMeta.status).toBe(401)
  })
})
