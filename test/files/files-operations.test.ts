import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { FileSchema } from '../../src/api/files/index.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, uploadText } from './helpers.js'

let service: TestService
beforeEach(async () => {
  service = await startTestService()
})
afterEach(async () => {
  await service.close()
})

describe('upsertFile and getFile', () => {
  it('returns every File field, an absolute uploadUrl, and infers contentType from the key', async () => {
    const res = await service.request('PUT', '/v1/files', { body: { key: 'docs/Guide.PDF', size: 3, tags: { lang: 'en' }, metadata: { pages: 1 } } })
    expect(res.status).toBe(200)
    const { uploadUrl, ...file } = res.body.file
    expect(FileSchema.parse(file)).toMatchObject({
      key: 'docs/Guide.PDF',
      botId: service.botId,
      size: null,
      contentType: 'application/pdf',
      status: 'upload_pending',
      index: false,
      accessPolicies: [],
      tags: { lang: 'en' },
      metadata: { pages: 1 },
      owner: { type: 'bot', id: service.botId },
    })
    expect(file.id).toMatch(/^file_[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(uploadUrl).toMatch(/^http:\/\/botshelf\.test\/v1\/content\/upload\//)
    expect((await service.request('PUT', '/v1/files', { body: { key: 'README', size: 1 } })).body.file.contentType).toBe('application/octet-stream')
    expect((await service.request('PUT', '/v1/files', { body: { key: 'x.bin', size: 1, contentType: 'text/csv' } })).body.file.contentType).toBe('text/csv')
  })

  it('finds a file by id and by key, with %2F inside the key segment', async () => {
    const { file } = await uploadText(service, 'some/key.txt', 'hello')
    const byKey = await service.request('GET', `/v1/files/${encodeURIComponent('some/key.txt')}`)
    expect(byKey.status).toBe(200)
    expect(byKey.body.file).toMatchObject({ id: file.id, status: 'upload_completed', size: 5 })
    const byId = await service.request('GET', `/v1/files/${file.id}`)
    expect(byId.body.file.key).toBe('some/key.txt')
    const missing = await service.request('GET', '/v1/files/nope.txt')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ type: 'ResourceNotFound', code: 404 })
  })

  it('accepts index: true and indexes the file with the default extractor and embedder: pending, then completed and searchable', async () => {
    const { file } = await uploadText(service, 'a.md', '# Refunds\n\nOrders are refunded within fourteen days of the return.', { index: true })
    expect(file.index).toBe(true)
    const first = (await service.request('GET', `/v1/files/${file.id}`)).body.file
    expect(['indexing_pending', 'indexing_completed']).toContain(first.status)
    const current = await eventually(async () => {
      const latest = (await service.request('GET', `/v1/files/${file.id}`)).body.file
      return latest.status === 'indexing_pending' ? undefined : latest
    }, 'the indexing to end')
    expect(current.status).toBe('indexing_completed')
    const found = await service.request('GET', '/v1/files/search', { query: { query: 'how long do refunds take' } })
    expect(found.status).toBe(200)
    expect(found.body.passages).toContainEqual(expect.objectContaining({ file: expect.objectContaining({ id: file.id }), content: expect.stringContaining('fourteen days') }))
  })

  it('names unknown keys, bad keys and limits in InvalidPayload messages', async () => {
    const unknown = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, colour: 'red' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toContain('colour')
    const control = await service.request('PUT', '/v1/files', { body: { key: 'a\u0007b', size: 1 } })
    expect(control.body.message).toMatch(/key: .*control characters/)
    const longKey = await service.request('PUT', '/v1/files', { body: { key: 'k'.repeat(1025), size: 1 } })
    expect(longKey.body.message).toMatch(/key: expected at most 1024 characters/)
    const tooBig = await service.request('PUT', '/v1/files', { body: { key: 'big', size: 1024 ** 3 + 1 } })
    expect(tooBig.body.message).toMatch(/size: expected at most 1073741824/)
    const longValue = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, tags: { t: 'v'.repeat(1001) } } })
    expect(longValue.body.message).toMatch(/tags\.t: expected at most 1000 characters/)
    const missingSize = await service.request('PUT', '/v1/files', { body: { key: 'a' } })
    expect(missingSize.body.message).toMatch(/size: expected number, received missing/)
  })

  it('validates expiresAt: future and at most 90 days ahead', async () => {
    const past = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, expiresAt: '2020-01-01T00:00:00Z' } })
    expect(past.status).toBe(400)
    expect(past.body.message).toMatch(/expiresAt: expected a date in the future/)
    const far = new Date(Date.now() + 91 * 86_400_000).toISOString()
    const tooFar = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, expiresAt: far } })
    expect(tooFar.body.message).toMatch(/expiresAt: expected at most 90 days ahead/)
    const soon = new Date(Date.now() + 3_600_000).toISOString()
    const ok = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, expiresAt: soon } })
    expect(ok.body.file.expiresAt).toBe(soon)
    const notADate = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, expiresAt: 'tomorrow' } })
    expect(notADate.body.message).toMatch(/expiresAt: expected a valid datetime/)
  })

  it('answers PayloadTooLarge over 1 MB of JSON', async () => {
    const res = await service.request('PUT', '/v1/files', { body: { key: 'a', size: 1, metadata: { blob: 'x'.repeat(1024 * 1024) } } })
    expect(res.status).toBe(413)
    expect(res.body.type).toBe('PayloadTooLarge')
  })
})

describe('listFiles', () => {
  it('filters by tags (equality, OR, not, in, exists), by ids, and sorts', async () => {
    const a = (await uploadText(service, 'a.txt', 'aaa', { tags: { lang: 'en', topic: 'sales' } })).file
    const b = (await uploadText(service, 'b.txt', 'b', { tags: { lang: 'fr' } })).file
    const c = (await uploadText(service, 'c.txt', 'cc', { tags: { lang: 'de', topic: 'hr' } })).file
    const keys = async (query: Record<string, unknown>): Promise<string[]> => {
      const res = await service.request('GET', '/v1/files', { query })
      expect(res.status).toBe(200)
      return res.body.files.map((f: { key: string }) => f.key)
    }
    expect(await keys({})).toEqual(['c.txt', 'b.txt', 'a.txt'])
    expect(await keys({ tags: { lang: 'en' } })).toEqual(['a.txt'])
    expect(await keys({ tags: { lang: ['en', 'fr'] }, sortField: 'key', sortDirection: 'asc' })).toEqual(['a.txt', 'b.txt'])
    expect(await keys({ tags: { lang: { not: 'en' } } })).toEqual(['c.txt', 'b.txt'])
    expect(await keys({ tags: { lang: { in: ['de', 'en'] } }, sortField: 'key' })).toEqual(['c.txt', 'a.txt'])
    expect(await keys({ tags: { topic: { exists: false } } })).toEqual(['b.txt'])
    expect(await keys({ tags: { topic: { exists: true } }, sortField: 'size', sortDirection: 'asc' })).toEqual(['c.txt', 'a.txt'])
    expect(await keys({ ids: [a.id, c.id], sortField: 'key', sortDirection: 'asc' })).toEqual(['a.txt', 'c.txt'])
    expect(await keys({ ids: b.id })).toEqual(['b.txt'])
    const json = await service.request('GET', `/v1/files?tags=${encodeURIComponent(JSON.stringify({ lang: 'fr' }))}`)
    expect(json.body.files.map((f: { key: string }) => f.key)).toEqual(['b.txt'])
    expect(await keys({ indexed: true })).toEqual([])
  })

  it('always has meta, pages with opaque tokens, and refuses altered or foreign tokens', async () => {
    for (let i = 0; i < 5; i++) await service.request('PUT', '/v1/files', { body: { key: `f${i}`, size: 1 } })
    const first = await service.request('GET', '/v1/files', { query: { pageSize: 2 } })
    expect(first.body.files).toHaveLength(2)
    expect(typeof first.body.meta.nextToken).toBe('string')
    const all: string[] = first.body.files.map((f: { key: string }) => f.key)
    let token = first.body.meta.nextToken as string | undefined
    while (token) {
      const page = await service.request('GET', '/v1/files', { query: { pageSize: 2, nextToken: token } })
      all.push(...page.body.files.map((f: { key: string }) => f.key))
      token = page.body.meta.nextToken
      if (!token) expect(page.body.meta).toEqual({})
    }
    expect(all).toEqual(['f4', 'f3', 'f2', 'f1', 'f0'])
    const altered = await service.request('GET', '/v1/files', { query: { nextToken: `${first.body.meta.nextToken}x` } })
    expect(altered.status).toBe(400)
    expect(altered.body).toMatchObject({ type: 'InvalidQuery' })
    expect(altered.body.message).toMatch(/nextToken/)
    const otherQuery = await service.request('GET', '/v1/files', { query: { sortField: 'key', nextToken: first.body.meta.nextToken } })
    expect(otherQuery.body.type).toBe('InvalidQuery')
    const bad = await service.request('GET', '/v1/files', { query: { pageSize: 1000 } })
    expect(bad.body.message).toMatch(/pageSize: expected at most 100/)
    const badSort = await service.request('GET', '/v1/files', { query: { sortField: 'colour' } })
    expect(badSort.status).toBe(400)
    expect(badSort.body.message).toMatch(/sortField/)
    const tooManyIds = await service.request('GET', '/v1/files', { query: { ids: Array.from({ length: 51 }, (_, i) => `file_${i}`) } })
    expect(tooManyIds.body.message).toMatch(/ids: expected at most 50 items/)
  })

  it('never skips or repeats a file that exists throughout, while files are added and deleted', async () => {
    const keys: string[] = []
    for (let i = 0; i < 12; i++) {
      await service.request('PUT', '/v1/files', { body: { key: `k${String(i).padStart(2, '0')}`, size: 1 } })
      keys.push(`k${String(i).padStart(2, '0')}`)
    }
    const doomed = ['k01', 'k05', 'k10']
    const seen: string[] = []
    let token: string | undefined
    let round = 0
    do {
      const page = await service.request('GET', '/v1/files', { query: { pageSize: 3, ...(token ? { nextToken: token } : {}) } })
      seen.push(...page.body.files.map((f: { key: string }) => f.key))
      token = page.body.meta.nextToken
      await service.request('PUT', '/v1/files', { body: { key: `new${round++}`, size: 1 } })
      const victim = doomed.shift()
      if (victim) await service.request('DELETE', `/v1/files/${victim}`)
    } while (token)
    const survivors = keys.filter((k) => !['k01', 'k05', 'k10'].includes(k))
    expect(new Set(seen).size).toBe(seen.length)
    for (const key of survivors) expect(seen).toContain(key)
  })
})

describe('updateFileMetadata', () => {
  it('merges metadata and tags (null deletes), replaces policies, sets and removes expiresAt, never touches content', async () => {
    const { file } = await uploadText(service, 'm.txt', 'abc', { tags: { a: '1', b: '2' }, metadata: { x: 1, y: { z: 2 } }, accessPolicies: ['integrations'] })
    const soon = new Date(Date.now() + 3_600_000).toISOString()
    const res = await service.request('PUT', `/v1/files/m.txt`, {
      body: { tags: { b: null, c: '3' }, metadata: { x: null, w: true }, accessPolicies: ['public_content'], expiresAt: soon },
    })
    expect(res.status).toBe(200)
    expect(res.body.file).toMatchObject({
      id: file.id,
      tags: { a: '1', c: '3' },
      metadata: { y: { z: 2 }, w: true },
      accessPolicies: ['public_content'],
      expiresAt: soon,
      size: 3,
      status: 'upload_completed',
    })
    expect(res.body.file.metadata).not.toHaveProperty('x')
    const cleared = await service.request('PUT', `/v1/files/${file.id}`, { body: { expiresAt: null } })
    expect(cleared.body.file).not.toHaveProperty('expiresAt')
    const tagged = await service.request('GET', '/v1/files', { query: { tags: { c: '3' } } })
    expect(tagged.body.files).toHaveLength(1)
    const unknown = await service.request('PUT', `/v1/files/${file.id}`, { body: { key: 'renamed' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toContain('key')
  })
})

describe('copyFile', () => {
  it('copies content and definition, refuses an existing key without overwrite, replaces it with overwrite', async () => {
    await uploadText(service, 'src.txt', 'source', { tags: { t: '1' } })
    await uploadText(service, 'dst.txt', 'old')
    const refused = await service.request('POST', '/v1/files/src.txt/dst.txt', { body: {} })
    expect(refused.status).toBe(409)
    expect(refused.body.type).toBe('AlreadyExists')
    const copied = await service.request('POST', '/v1/files/src.txt/copy.txt', { body: {} })
    expect(copied.status).toBe(200)
    expect(copied.body.file).toMatchObject({ key: 'copy.txt', size: 6, status: 'upload_completed', tags: { t: '1' } })
    const overwritten = await service.request('POST', '/v1/files/src.txt/dst.txt', { body: { overwrite: true } })
    expect(overwritten.status).toBe(200)
    const content = await fetchUrl(service, overwritten.body.file.url)
    expect(await content.text()).toBe('source')
    await service.request('DELETE', '/v1/files/src.txt')
    expect(await (await fetchUrl(service, copied.body.file.url)).text()).toBe('source')
  })

  it('honours x-destination-bot-id: a token of another bot is Forbidden', async () => {
    await uploadText(service, 'src.txt', 'source')
    const res = await service.request('POST', '/v1/files/src.txt/elsewhere.txt', { body: {}, headers: { 'x-destination-bot-id': service.otherBotId } })
    expect(res.status).toBe(403)
    expect(res.body.type).toBe('Forbidden')
    const same = await service.request('POST', '/v1/files/src.txt/here.txt', { body: {}, headers: { 'x-destination-bot-id': service.botId } })
    expect(same.status).toBe(200)
  })

  it('refuses to copy a file whose upload has not completed', async () => {
    await service.request('PUT', '/v1/files', { body: { key: 'pending.txt', size: 3 } })
    const res = await service.request('POST', '/v1/files/pending.txt/copy.txt', { body: {} })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/no uploaded content yet/)
  })
})

describe('deleteFile', () => {
  it('deletes by key or id and answers {}; the content URL stops working', async () => {
    const { file } = await uploadText(service, 'gone.txt', 'bye')
    const del = await service.request('DELETE', '/v1/files/gone.txt')
    expect(del.status).toBe(200)
    expect(del.body).toEqual({})
    expect((await service.request('GET', `/v1/files/${file.id}`)).status).toBe(404)
    expect((await fetchUrl(service, file.url)).status).toBe(404)
    expect((await service.request('DELETE', `/v1/files/${file.id}`)).status).toBe(404)
  })
})

describe('listFileTags and listFileTagValues', () => {
  it('lists distinct keys and values, paginated', async () => {
    await uploadText(service, 'a', 'a', { tags: { colour: 'red', size: 'L' } })
    await uploadText(service, 'b', 'b', { tags: { colour: 'blue', shape: 'round' } })
    const page1 = await service.request('GET', '/v1/files/tags', { query: { pageSize: 2 } })
    expect(page1.body.tags).toEqual(['colour', 'shape'])
    const page2 = await service.request('GET', '/v1/files/tags', { query: { pageSize: 2, nextToken: page1.body.meta.nextToken } })
    expect(page2.body).toEqual({ tags: ['size'], meta: {} })
    const values = await service.request('GET', '/v1/files/tags/colour/values')
    expect(values.body).toEqual({ values: ['blue', 'red'], meta: {} })
  })
})

describe('search and passages', () => {
  it('work without an extractor or embedder: given passages are indexed and searched by words', async () => {
    await uploadText(service, 'doc.txt', 'text')
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'refund' } })).body).toEqual({ passages: [] })
    expect((await service.request('GET', '/v1/files/doc.txt/passages')).body).toEqual({ passages: [], meta: {} })
    const set = await service.request('PUT', '/v1/files/doc.txt/passages', { body: { passages: [{ content: 'Refunds within thirty days' }] } })
    expect(set.status).toBe(200)
    const found: any[] = await eventually(async () => {
      const passages = (await service.request('GET', '/v1/files/search', { query: { query: 'refund' } })).body.passages
      return passages.length > 0 ? passages : undefined
    }, 'the given passages searchable')
    expect(found.map((p) => p.content)).toEqual(['Refunds within thirty days'])
    expect((await service.request('GET', '/v1/files/doc.txt')).body.file.status).toBe('indexing_completed')
    const longQuery = await service.request('GET', '/v1/files/search', { query: { query: 'q'.repeat(1025) } })
    expect(longQuery.status).toBe(400)
    expect(longQuery.body.message).toMatch(/query: expected at most 1024 bytes/)
  })
})

describe('knowledge bases', () => {
  it('create, list with tag filter, update (merge tags), delete', async () => {
    const created = await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'Docs', tags: { team: 'support', old: 'x' } } })
    expect(created.status).toBe(200)
    const kb = created.body.knowledgeBase
    expect(kb).toMatchObject({ name: 'Docs', tags: { team: 'support', old: 'x' } })
    await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'Other' } })
    const filtered = await service.request('GET', '/v1/files/knowledge-bases', { query: { tags: { team: 'support' } } })
    expect(filtered.body.knowledgeBases.map((k: { name: string }) => k.name)).toEqual(['Docs'])
    expect(filtered.body.meta).toEqual({})
    expect(filtered.body.knowledgeBases[0].createdAt).toEqual(expect.any(String))
    const updated = await service.request('PUT', `/v1/files/knowledge-bases/${kb.id}`, { body: { name: 'Docs v2', tags: { old: null } } })
    expect(updated.body.knowledgeBase).toEqual({ id: kb.id, name: 'Docs v2', tags: { team: 'support' } })
    expect((await service.request('DELETE', `/v1/files/knowledge-bases/${kb.id}`)).body).toEqual({})
    expect((await service.request('DELETE', `/v1/files/knowledge-bases/${kb.id}`)).status).toBe(404)
    expect((await service.request('POST', '/v1/files/knowledge-bases', { token: 'viewer', body: { name: 'No' } })).status).toBe(403)
  })
})
