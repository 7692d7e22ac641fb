import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import {
  AlreadyExistsError,
  ForbiddenError,
  ResourceNotFoundError,
  type Client,
} from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'

describe('client e2e: Files API operations against the real in-process service', () => {
  let service: ClientTestService
  let client: Client

  beforeAll(async () => {
    service = await startClientService()
    client = service.client('bot')
  })
  afterAll(async () => {
    await service.close()
  })

  it('upsertFile returns an absolute uploadUrl and a pending file', async () => {
    const { file } = await client.upsertFile({ key: 'upsert/only.txt', size: 4, tags: { kind: 'draft' } })
    expect(file.status).toBe('upload_pending')
    expect(file.key).toBe('upsert/only.txt')
    expect(file.tags).toEqual({ kind: 'draft' })
    expect(new URL(file.uploadUrl).origin).toBe(new URL(service.url).origin)
  })

  it('uploadFile then getFile (by key with a slash, and by id) and downloadFile', async () => {
    const uploaded = await client.uploadFile({ key: 'notes/hello world.txt', content: 'héllo', metadata: { author: 'ada' } })
    expect(uploaded.file.size).toBe(6)
    const byKey = await client.getFile({ id: 'notes/hello world.txt' })
    expect(byKey.file).toMatchObject({ id: uploaded.file.id, status: 'upload_completed', size: 6, metadata: { author: 'ada' }, contentType: 'text/plain' })
    const byId = await client.getFile({ id: uploaded.file.id })
    expect(byId.file.key).toBe('notes/hello world.txt')
    const { file, response } = await client.downloadFile({ id: uploaded.file.id })
    expect(file.id).toBe(uploaded.file.id)
    expect(response.headers.get('content-type')).toContain('text/plain')
    expect(await response.text()).toBe('héllo')
  })

  it('listFiles filters by tags (equality, OR, not), ids and sorts', async () => {
    await client.uploadFile({ key: 'list/a.txt', content: 'a', tags: { team: 'sales', region: 'eu' } })
    await client.uploadFile({ key: 'list/b.txt', content: 'bb', tags: { team: 'support', region: 'us' } })
    const c = await client.uploadFile({ key: 'list/c.txt', content: 'ccc', tags: { team: 'legal', region: 'eu' } })
    const keys = async (input: Parameters<Client['listFiles']>[0]) => (await client.listFiles(input)).files.map((f) => f.key)
    expect(await keys({ tags: { team: 'sales' } })).toEqual(['list/a.txt'])
    expect(await keys({ tags: { team: ['sales', 'support'] }, sortField: 'key', sortDirection: 'asc' })).toEqual(['list/a.txt', 'list/b.txt'])
    expect(await keys({ tags: { region: 'eu', team: { not: 'legal' } } })).toEqual(['list/a.txt'])
    expect(await keys({ ids: [c.file.id] })).toEqual(['list/c.txt'])
    expect(await keys({ tags: { region: { exists: true } }, sortField: 'size', sortDirection: 'desc' })).toEqual(['list/c.txt', 'list/b.txt', 'list/a.txt'])
    const page = await client.listFiles({ tags: { team: 'sales' } })
    expect(page.meta).toEqual({})
  })

  it('updateFileMetadata merges tags and metadata, replaces policies, sets and clears expiresAt', async () => {
    await client.uploadFile({ key: 'update/me.txt', content: 'x', tags: { a: '1', b: '2' }, metadata: { m: 1 } })
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString()
    const updated = await client.updateFileMetadata({
      id: 'update/me.txt',
      tags: { b: null, c: '3' },
      metadata: { n: 2 },
      accessPolicies: ['integrations'],
      expiresAt,
    })
    expect(updated.file.tags).toEqual({ a: '1', c: '3' })
    expect(updated.file.metadata).toEqual({ m: 1, n: 2 })
    expect(updated.file.accessPolicies).toEqual(['integrations'])
    expect(updated.file.expiresAt).toBeDefined()
    const cleared = await client.updateFileMetadata({ id: 'update/me.txt', expiresAt: null })
    expect(cleared.file.expiresAt).toBeUndefined()
  })

  it('copyFile copies, refuses an existing key without overwrite, and sends x-destination-bot-id', async () => {
    await client.uploadFile({ key: 'copy/src.txt', content: 'copy me' })
    const copied = await client.copyFile({ idOrKey: 'copy/src.txt', destinationKey: 'copy/dst.txt' })
    expect(copied.file.key).toBe('copy/dst.txt')
    expect(await (await client.downloadFile({ id: 'copy/dst.txt' })).response.text()).toBe('copy me')
    await expect(client.copyFile({ idOrKey: 'copy/src.txt', destinationKey: 'copy/dst.txt' })).rejects.toBeInstanceOf(AlreadyExistsError)
    const again = await client.copyFile({ idOrKey: 'copy/src.txt', destinationKey: 'copy/dst.txt', overwrite: true })
    expect(again.file.id).toBeDefined()
    const crossBot = await client
      .copyFile({ idOrKey: 'copy/src.txt', destinationKey: 'x.txt', 'x-destination-bot-id': service.otherBotId })
      .catch((e: unknown) => e)
    expect(crossBot).toBeInstanceOf(ForbiddenError)
    expect((crossBot as ForbiddenError).message).toContain(service.otherBotId)
  })

  it('deleteFile removes the file; getFile then fails with ResourceNotFoundError', async () => {
    await client.uploadFile({ key: 'delete/me.txt', content: 'bye' })
    expect(await client.deleteFile({ id: 'delete/me.txt' })).toEqual({})
    const error = await client.getFile({ id: 'delete/me.txt' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResourceNotFoundError)
    expect((error as ResourceNotFoundError).id).toMatch(/^err_/)
  })

  it('listFileTags and listFileTagValues list the distinct keys and values', async () => {
    await client.uploadFile({ key: 'tags/1.txt', content: '1', tags: { colour: 'red' } })
    await client.uploadFile({ key: 'tags/2.txt', content: '2', tags: { colour: 'blue', size: 'xl' } })
    const { tags } = await client.listFileTags({})
    expect(tags).toEqual(expect.arrayContaining(['colour', 'size']))
    const { values, meta } = await client.listFileTagValues({ tag: 'colour' })
    expect(values).toEqual(['blue', 'red'])
    expect(meta).toEqual({})
  })

  it('creates, lists, updates and deletes knowledge bases', async () => {
    const { knowledgeBase } = await client.createKnowledgeBase({ name: 'Docs', tags: { team: 'support', old: 'x' } })
    expect(knowledgeBase).toMatchObject({ name: 'Docs', tags: { team: 'support', old: 'x' } })
    const listed = await client.listKnowledgeBases({ tags: { team: 'support' } })
    expect(listed.knowledgeBases.map((kb) => kb.id)).toContain(knowledgeBase.id)
    const updated = await client.updateKnowledgeBase({ id: knowledgeBase.id, name: 'Docs v2', tags: { old: null } })
    expect(updated.knowledgeBase).toMatchObject({ name: 'Docs v2', tags: { team: 'support' } })
    expect(await client.deleteKnowledgeBase({ id: knowledgeBase.id })).toEqual({})
    const after = await client.listKnowledgeBases({})
    expect(after.knowledgeBases.map((kb) => kb.id)).not.toContain(knowledgeBase.id)
  })

  it('setFilePassages, listFilePassages, list.filePassages and searchFiles work end to end', async () => {
    await client.uploadFile({ key: 'guide.md', content: '# Guide' })
    const given = Array.from({ length: 5 }, (_, i) => ({ content: `Step ${i}: tighten bolt number ${i}`, pageNumber: i + 1 }))
    expect(await client.setFilePassages({ id: 'guide.md', passages: [{ content: 'Assembly guide', type: 'title' }, ...given] })).toEqual({})
    const status = await eventually(async () => {
      const latest = (await client.getFile({ id: 'guide.md' })).file.status
      return latest === 'indexing_pending' ? undefined : latest
    }, 'guide.md indexed')
    expect(status).toBe('indexing_completed')
    const page = await client.listFilePassages({ id: 'guide.md', limit: 2 })
    expect(page.passages.map((p) => p.content)).toEqual(['Assembly guide', 'Step 0: tighten bolt number 0'])
    expect(page.meta.nextToken).toEqual(expect.any(String))
    const all = await client.list.filePassages({ id: 'guide.md', limit: 2 }).collect()
    expect(all.map((p) => p.meta.position)).toEqual([0, 1, 2, 3, 4, 5])
    expect(all[3]!.meta).toEqual({ type: 'chunk', subtype: 'paragraph', pageNumber: 3, position: 3 })
    const { passages } = await client.searchFiles({ query: 'bolt', limit: 3 })
    expect(passages).toHaveLength(3)
    expect(passages[0]!.file).toMatchObject({ key: 'guide.md', contentType: 'text/markdown' })
    for (let i = 1; i < passages.length; i++) expect(passages[i - 1]!.score).toBeGreaterThanOrEqual(passages[i]!.score)
  })
})
