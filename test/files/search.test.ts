import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { SearchPassageSchema } from '../../src/api/files/index.js'
import { uploadText } from './helpers.js'
import { settledFile, startSearchService, type SearchTestService } from './search-helpers.js'

let service: SearchTestService
const CHAPTERS = [
  '# Kayak manual',
  'Paddles are made of carbon.',
  'Store the paddle dry.',
  '## Safety',
  'Always wear a life vest on the water.',
  'Check the weather before paddling.',
].join('\n\n')

beforeAll(async () => {
  // These tests are about the shape of results; the relevance floor (calibrated for the offline embedder, not the
  // hashed test one) is tested in relevance.test.ts.
  service = await startSearchService({ listen: true, minScore: 0 })
  for (const [key, content, tags] of [
    ['kayak.md', CHAPTERS, { lang: 'en', kind: 'manual' }],
    ['canoe.md', 'Canoes carry paddles and a vest for each paddler.', { lang: 'en', kind: 'faq' }],
    ['kayak-fr.md', 'Les pagaies du kayak sont en carbone.', { lang: 'fr', kind: 'manual' }],
  ] as const) {
    const { file } = await uploadText(service, key, content, { index: true, tags })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
  }
  // Twenty more files, so default and maximum limits have something to cut.
  for (let i = 0; i < 60; i++) await service.backend.search.replacePassages({
    fileId: (await uploadText(service, `bulk/${i}.md`, 'x')).file.id,
    botId: service.botId,
    embedderId: null,
    passages: [{ content: `bulk passage about paddles number ${i}`, subtype: 'paragraph', breadcrumb: [], vector: null }],
  })
})
afterAll(async () => {
  await service.close()
})

const search = (query: Record<string, unknown>, token: Parameters<SearchTestService['request']>[2] = {}) => service.request('GET', '/v1/files/search', { ...token, query })

describe('searchFiles', () => {
  it('answers SearchPassages, highest score first, with the file fields the wire names and nothing else', async () => {
    const res = await search({ query: 'life vest', tags: { kind: 'manual' } })
    expect(res.status).toBe(200)
    const passages = res.body.passages
    expect(passages[0].content).toBe('Always wear a life vest on the water.')
    for (const passage of passages) expect(() => SearchPassageSchema.strict().parse(passage)).not.toThrow()
    expect(Object.keys(passages[0].file).sort()).toEqual(['contentType', 'createdAt', 'id', 'key', 'metadata', 'tags', 'updatedAt'])
    expect(passages[0].meta).toEqual({ type: 'chunk', subtype: 'paragraph', position: 4 })
    expect(passages[0].context).toBeUndefined()
    for (let i = 1; i < passages.length; i++) expect(passages[i - 1].score).toBeGreaterThanOrEqual(passages[i].score)
  })

  it('filters by tags inside the query: a small limit still returns the allowed match', async () => {
    const res = await search({ query: 'paddles carbon', tags: { lang: 'fr' }, limit: 1 })
    expect(res.body.passages.map((p: any) => p.file.key)).toEqual(['kayak-fr.md'])
    const none = await search({ query: 'paddles', tags: { kind: { not: ['manual', 'faq'] }, lang: { exists: true } } })
    expect(none.body.passages).toEqual([])
  })

  it('returns 20 results by default and at most 50', async () => {
    expect((await search({ query: 'paddles' })).body.passages).toHaveLength(20)
    expect((await search({ query: 'paddles', limit: 50 })).body.passages).toHaveLength(50)
    const tooMany = await search({ query: 'paddles', limit: 51 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toMatch(/limit/)
  })

  it('refuses an empty query, a query over 1 KB in UTF-8 bytes (naming the limit), and a bad contextDepth; accepts consolidate with withContext', async () => {
    const empty = await search({ query: '' })
    expect(empty.status).toBe(400)
    expect(empty.body.message).toMatch(/query/)
    // 342 three-byte characters: 1026 bytes though only 342 characters.
    const wide = await search({ query: '€'.repeat(342) })
    expect(wide.status).toBe(400)
    expect(wide.body.message).toMatch(/query: expected at most 1024 bytes/)
    expect((await search({ query: '€'.repeat(341) })).status).toBe(200)
    const depth = await search({ query: 'vest', contextDepth: 11 })
    expect(depth.status).toBe(400)
    expect(depth.body.message).toMatch(/contextDepth/)
    // consolidate and withContext together are accepted (bot code sends both): consolidated results carry no context.
    const both = await search({ query: 'vest', consolidate: true, withContext: true })
    expect(both.status).toBe(200)
    expect(both.body.passages.length).toBeGreaterThan(0)
    for (const passage of both.body.passages) expect(passage.context).toBeUndefined()
  })

  it('withContext lists the breadcrumb, preceding, current and subsequent passages with ids and offsets', async () => {
    const res = await search({ query: 'life vest', tags: { kind: 'manual' }, withContext: true, includeBreadcrumb: true, contextDepth: 1, limit: 1 })
    const [hit] = res.body.passages
    expect(hit.content).toBe('Always wear a life vest on the water.')
    expect(hit.context.map((entry: any) => ({ type: entry.type, text: entry.text, offset: entry.offset }))).toEqual([
      { type: 'breadcrumb', text: 'Kayak manual > Safety', offset: undefined },
      { type: 'preceding', text: '## Safety', offset: -1 },
      { type: 'current', text: 'Always wear a life vest on the water.', offset: 0 },
      { type: 'subsequent', text: 'Check the weather before paddling.', offset: 1 },
    ])
    expect(hit.context.filter((entry: any) => entry.type !== 'breadcrumb').every((entry: any) => typeof entry.id === 'string')).toBe(true)
    const deeper = await search({ query: 'life vest', tags: { kind: 'manual' }, withContext: true, contextDepth: 3, limit: 1 })
    expect(deeper.body.passages[0].context.map((entry: any) => entry.offset)).toEqual([-3, -2, -1, 0, 1])
  })

  it('consolidate merges the hits of one file and their neighbours into one result, without context', async () => {
    const res = await search({ query: 'paddle paddles vest weather', tags: { key: 'x' }, consolidate: true })
    expect(res.body.passages).toEqual([])
    const merged = await search({ query: 'paddle vest weather', tags: { kind: 'manual', lang: 'en' }, consolidate: true, contextDepth: 1 })
    const passages = merged.body.passages
    expect(passages).toHaveLength(1)
    expect(passages[0].meta).toMatchObject({ type: 'consolidated', position: 0 })
    expect(passages[0].content).toBe(CHAPTERS)
    expect(passages[0].context).toBeUndefined()
  })

  it('an integration finds only its own files and those shared with integrations; billing managers are refused', async () => {
    const own = await uploadText(service, 'alpha-notes.md', 'Ocelots are secretive.', { index: true }, 'alpha')
    await settledFile(service, own.file.id, { token: 'alpha' })
    const shared = await uploadText(service, 'shared-notes.md', 'Ocelots hunt at night.', { index: true, accessPolicies: ['integrations'] })
    await settledFile(service, shared.file.id)
    const keysFor = async (token: 'alpha' | 'beta' | 'viewer') => (await search({ query: 'ocelots' }, { token })).body.passages.map((p: any) => p.file.key).sort()
    expect(await keysFor('alpha')).toEqual(['alpha-notes.md', 'shared-notes.md'])
    expect(await keysFor('beta')).toEqual(['shared-notes.md'])
    expect(await keysFor('viewer')).toEqual(['alpha-notes.md', 'shared-notes.md'])
    expect((await search({ query: 'ocelots' }, { token: 'billing_manager' })).status).toBe(403)
    expect((await search({ query: 'ocelots' }, { token: 'otherBot' })).body.passages).toEqual([])
  })
})

describe('listFilePassages', () => {
  it('pages in document order with the one cursor module, limit default 20 and max 200', async () => {
    const { file } = await uploadText(service, 'long.md', Array.from({ length: 45 }, (_, i) => `Paragraph ${i}.`).join('\n\n'), { index: true })
    await settledFile(service, file.id)
    const first = await service.request('GET', `/v1/files/${file.id}/passages`)
    expect(first.body.passages).toHaveLength(20)
    const seen: number[] = []
    let token: string | undefined
    do {
      const page = await service.request('GET', `/v1/files/${file.id}/passages`, { query: { limit: 7, ...(token ? { nextToken: token } : {}) } })
      seen.push(...page.body.passages.map((p: any) => p.meta.position))
      token = page.body.meta.nextToken
    } while (token)
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => i))
    expect((await service.request('GET', `/v1/files/${file.id}/passages`, { query: { limit: 201 } })).status).toBe(400)
    const forged = await service.request('GET', `/v1/files/${file.id}/passages`, { query: { nextToken: 'forged' } })
    expect(forged.status).toBe(400)
    expect(forged.body.message).toMatch(/nextToken/)
  })
})

describe('@botpress/client against the search routes, unchanged', () => {
  it('uploads with index, waits for indexing_completed, searches with tags and context, lists and sets passages', async () => {
    const client = service.botpressClient('bot')
    const { file } = await client.uploadFile({ key: 'official.md', content: '# Official\n\nThe mongoose eats snakes.\n\nIt is quick.', index: true, tags: { via: 'official' } })
    const current = await eventually(async () => {
      const latest = (await client.getFile({ id: file.id })).file
      return latest.status === 'indexing_completed' ? latest : undefined
    }, 'official.md indexed')
    expect(current).toMatchObject({ status: 'indexing_completed', indexingStack: 'v1', index: true })
    const { passages } = await client.searchFiles({ query: 'mongoose', tags: { via: 'official' }, withContext: true, contextDepth: 1 })
    expect(passages[0]).toMatchObject({ content: 'The mongoose eats snakes.', file: { id: file.id, key: 'official.md' } })
    expect(passages[0]!.context!.map((entry) => entry.type)).toEqual(['preceding', 'current', 'subsequent'])
    const page = await client.listFilePassages({ id: 'official.md', limit: 2 })
    expect(page.passages.map((p) => p.content)).toEqual(['# Official', 'The mongoose eats snakes.'])
    const all = await client.list.filePassages({ id: file.id, limit: 1 }).collect()
    expect(all.map((p) => p.content)).toEqual(['# Official', 'The mongoose eats snakes.', 'It is quick.'])
    expect(await client.setFilePassages({ id: file.id, passages: [{ content: 'Meerkats stand guard.', type: 'list', pageNumber: 4 }] })).toEqual({})
    await eventually(async () => {
      if ((await client.getFile({ id: file.id })).file.status !== 'indexing_completed') return undefined
      const listed = (await client.listFilePassages({ id: file.id })).passages
      return listed[0]?.content === 'Meerkats stand guard.' ? true : undefined
    }, 'the set passages listed')
    expect((await client.listFilePassages({ id: file.id })).passages.map((p) => p.meta)).toEqual([{ type: 'chunk', subtype: 'list', pageNumber: 4, position: 0 }])
    await expect(client.searchFiles({ query: 'q'.repeat(1025) })).rejects.toMatchObject({ type: 'InvalidPayload' })
  })
})
