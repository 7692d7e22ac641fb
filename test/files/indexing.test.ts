import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { filesLimits } from '../../src/api/files/index.js'
import { enqueueIndexing } from '../../server/src/search/indexing/index.js'
import { manualClock, uploadText } from './helpers.js'
import { pause, settledFile, startSearchService, type SearchTestService } from './search-helpers.js'

let service: SearchTestService
beforeEach(async () => {
  service = await startSearchService()
})
afterEach(async () => {
  await service.close()
})

const GUIDE = '# Returns guide\n\nRefunds are paid within thirty days.\n\n## Damaged items\n\nSend a photo of the damaged parcel.'

describe('indexing status', () => {
  it('goes indexing_pending after the content PUT (never upload_completed), then indexing_completed with indexingStack', async () => {
    const { file, putStatus } = await uploadText(service, 'guide.md', GUIDE, { index: true })
    expect(putStatus).toBe(200)
    expect(file).toMatchObject({ status: 'upload_pending', index: true })
    expect(file.indexingStack).toBeUndefined()
    const after = (await service.request('GET', `/v1/files/${file.id}`)).body.file
    expect(['indexing_pending', 'indexing_completed']).toContain(after.status)
    const done = await settledFile(service, file.id)
    expect(done).toMatchObject({ status: 'indexing_completed', indexingStack: 'v1' })
    expect(done.failedStatusReason).toBeUndefined()
    const passages = await service.request('GET', `/v1/files/${file.id}/passages`)
    expect(passages.status).toBe(200)
    expect(passages.body.passages.map((p: any) => [p.content, p.meta.subtype, p.meta.position])).toEqual([
      ['# Returns guide', 'title', 0],
      ['Refunds are paid within thirty days.', 'paragraph', 1],
      ['## Damaged items', 'subtitle', 2],
      ['Send a photo of the damaged parcel.', 'paragraph', 3],
    ])
    expect(passages.body.meta).toEqual({})
  })

  it('a file not to index goes upload_completed and has no passages', async () => {
    const { file } = await uploadText(service, 'plain.md', GUIDE)
    expect((await service.request('GET', `/v1/files/${file.id}`)).body.file.status).toBe('upload_completed')
    expect((await service.request('GET', `/v1/files/${file.id}/passages`)).body.passages).toEqual([])
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'refunds' } })).body.passages).toEqual([])
  })

  it('a document the extractor cannot read ends indexing_failed with its reason', async () => {
    const { file } = await uploadText(service, 'scan.bin', 'binary', { index: true, contentType: 'application/octet-stream' })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_failed')
    expect(done.failedStatusReason).toContain('cannot extract text from application/octet-stream')
  })

  it('a transient extractor failure is retried and ends indexing_failed after the last attempt, never stuck pending', async () => {
    // Retries back off 1 s, 2 s, 4 s, 8 s: a clock moved by hand makes each one due at once.
    const clock = manualClock()
    const timed = await startSearchService({ now: clock.now })
    try {
      const { file } = await uploadText(timed, 'crash.md', 'EXTRACTOR-CRASH', { index: true })
      for (let round = 0; round < 200; round++) {
        if ((await timed.request('GET', `/v1/files/${file.id}`)).body.file.status !== 'indexing_pending') break
        clock.advance(60_000)
        timed.app.services.jobs.wake()
        await pause(25)
      }
      const done = await settledFile(timed, file.id)
      expect(done.status).toBe('indexing_failed')
      expect(done.failedStatusReason).toMatch(/^indexing failed after 5 attempts: the test extractor crashed/)
    } finally {
      await timed.close()
    }
  })

  it('files over 95 MB are not indexed: indexing_failed with the limit in the reason', async () => {
    const { file } = await service.backend.files.upsert({
      botId: service.botId, key: 'huge.md', ownerScope: '', owner: { type: 'bot', id: service.botId }, size: filesLimits.indexableMaxBytes + 1,
      contentType: 'text/markdown', tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
    })
    // The bytes are not needed: the size check comes before any read.
    const committed = await service.backend.transaction(async (tx) => {
      const { file: done } = await tx.files.completeUpload(file.id, file.version, { blobId: 'blob_not_read', size: filesLimits.indexableMaxBytes + 1, sha256: 'x' })
      await enqueueIndexing(tx, done)
      return done
    })
    expect(committed.status).toBe('indexing_pending')
    service.app.services.jobs.wake()
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_failed')
    expect(done.failedStatusReason).toContain('files over 95 MB')
  })

  it('honours chunking.maximumChunkLength and refuses out-of-bounds or unknown configuration keys', async () => {
    const long = 'word '.repeat(100).trim()
    const { file } = await uploadText(service, 'long.md', long, { index: true, indexing: { configuration: { chunking: { maximumChunkLength: 100 } } } })
    await settledFile(service, file.id)
    const passages = (await service.request('GET', `/v1/files/${file.id}/passages`, { query: { limit: 200 } })).body.passages
    expect(passages.length).toBe(Math.ceil(long.length / 100))
    expect(passages.every((p: any) => p.content.length <= 100)).toBe(true)

    const tooSmall = await service.request('PUT', '/v1/files', { body: { key: 'x.md', size: 1, index: true, indexing: { configuration: { chunking: { maximumChunkLength: 99 } } } } })
    expect(tooSmall.status).toBe(400)
    expect(tooSmall.body.message).toContain('maximumChunkLength')
    const unknown = await service.request('PUT', '/v1/files', { body: { key: 'x.md', size: 1, indexing: { configuration: { chunking: { overlap: 3 } } } } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toContain('overlap')
  })
})

describe('re-upsert, delete and expiry', () => {
  it('old passages keep matching until the new version is indexed, then stop matching at once', async () => {
    const first = await uploadText(service, 'gated-notes.md', 'The aardvark sleeps by day.', { index: true })
    service.gate.release()
    await settledFile(service, first.file.id)
    service.gate.reset()
    await uploadText(service, 'gated-notes.md', 'The pangolin rolls into a ball.', { index: true })
    await pause(200)
    expect((await service.request('GET', `/v1/files/${first.file.id}`)).body.file.status).toBe('indexing_pending')
    const during = async (query: string) => (await service.request('GET', '/v1/files/search', { query: { query } })).body.passages.map((p: any) => p.content)
    expect(await during('aardvark')).toEqual(['The aardvark sleeps by day.'])
    expect(await during('pangolin')).toEqual([])
    service.gate.release()
    expect((await settledFile(service, first.file.id)).status).toBe('indexing_completed')
    expect(await during('aardvark')).toEqual([])
    expect(await during('pangolin')).toEqual(['The pangolin rolls into a ball.'])
  })

  it('re-upserting with index false drops the passages once the new content lands', async () => {
    const { file } = await uploadText(service, 'was-indexed.md', 'Quokkas smile.', { index: true })
    await settledFile(service, file.id)
    await uploadText(service, 'was-indexed.md', 'Quokkas smile.')
    expect((await service.request('GET', `/v1/files/${file.id}`)).body.file.status).toBe('upload_completed')
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'quokkas' } })).body.passages).toEqual([])
  })

  it('deleting a file removes its passages and vectors', async () => {
    const { file } = await uploadText(service, 'gone.md', 'Narwhals have tusks.', { index: true })
    await settledFile(service, file.id)
    expect((await service.backend.search.usage([service.botId])).vectorBytes).toBe(64 * 4)
    expect((await service.request('DELETE', `/v1/files/${file.id}`)).status).toBe(200)
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'narwhals' } })).body.passages).toEqual([])
    expect(await service.backend.search.usage([service.botId])).toEqual({ passages: 0, passageBytes: 0, vectorBytes: 0 })
  })
})

describe('embedder outage', () => {
  it('indexing waits while the embedder is unavailable (file stays pending) and completes once it answers; search answers by words meanwhile', async () => {
    await uploadText(service, 'before.md', 'Wombats dig burrows.', { index: true }).then(({ file }) => settledFile(service, file.id))
    service.embedder.unavailableFor = 10
    const { file } = await uploadText(service, 'outage.md', 'Capybaras love water.', { index: true })
    await pause(400)
    const pending = (await service.request('GET', `/v1/files/${file.id}`)).body.file
    expect(pending.status).toBe('indexing_pending')
    const lexical = await service.request('GET', '/v1/files/search', { query: { query: 'wombats' } })
    expect(lexical.status).toBe(200)
    expect(lexical.body.passages.map((p: any) => p.content)).toEqual(['Wombats dig burrows.'])
    service.embedder.unavailableFor = undefined
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'capybaras' } })).body.passages[0].content).toBe('Capybaras love water.')
  })
})

describe('setFilePassages', () => {
  it('replaces the passages with the given ones in order, with types and page numbers, and indexes them', async () => {
    const { file } = await uploadText(service, 'manual.md', 'Original text about llamas.', { index: true })
    await settledFile(service, file.id)
    const res = await service.request('PUT', `/v1/files/${file.id}/passages`, {
      body: { passages: [{ content: 'Alpaca handbook', type: 'title' }, { content: 'Alpacas hum.', pageNumber: 2 }, { content: '| a | b |', type: 'table', pageNumber: 3 }] },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({})
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    const passages = (await service.request('GET', `/v1/files/${file.id}/passages`)).body.passages
    expect(passages.map((p: any) => ({ content: p.content, meta: p.meta }))).toEqual([
      { content: 'Alpaca handbook', meta: { type: 'chunk', subtype: 'title', position: 0 } },
      { content: 'Alpacas hum.', meta: { type: 'chunk', subtype: 'paragraph', pageNumber: 2, position: 1 } },
      { content: '| a | b |', meta: { type: 'chunk', subtype: 'table', pageNumber: 3, position: 2 } },
    ])
    expect((await service.request('GET', '/v1/files/search', { query: { query: 'llamas' } })).body.passages).toEqual([])
    const found = await service.request('GET', '/v1/files/search', { query: { query: 'alpacas hum', includeBreadcrumb: true } })
    expect(found.body.passages[0].content).toBe('Alpaca handbook\n\nAlpacas hum.')
  })

  it('refuses a bad passage type naming the field, and a missing file with ResourceNotFound', async () => {
    const { file } = await uploadText(service, 'p.md', 'x')
    const bad = await service.request('PUT', `/v1/files/${file.id}/passages`, { body: { passages: [{ content: 'x', type: 'poem' }] } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('passages.0.type')
    const missing = await service.request('PUT', '/v1/files/nope.md/passages', { body: { passages: [] } })
    expect(missing.status).toBe(404)
    expect(missing.body.type).toBe('ResourceNotFound')
  })
})

describe('knowledge bases and the indexed filter', () => {
  it('indexes a file of an existing knowledge base even without index or with index false, and listFiles filters on indexed', async () => {
    const kb = (await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'Help center' } })).body.knowledgeBase
    const tags = { source: 'knowledge-base', kbId: kb.id }
    const { file } = await uploadText(service, 'kb/article.md', 'Resetting a password takes a minute.', { tags })
    expect(file.index).toBe(true)
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    // index: false is accepted for a file of a knowledge base, which is indexed all the same (decision 1436).
    const { file: other } = await uploadText(service, 'kb/other.md', 'Two-factor codes expire after thirty seconds.', { tags, index: false })
    expect(other.index).toBe(true)
    expect((await settledFile(service, other.id)).status).toBe('indexing_completed')
    // A kbId naming no knowledge base is an ordinary tag.
    const stray = await service.request('PUT', '/v1/files', { body: { key: 'kb/stray.md', size: 1, tags: { source: 'knowledge-base', kbId: 'kb_missing' } } })
    expect(stray.body.file.index).toBe(false)

    const indexed = (await service.request('GET', '/v1/files', { query: { indexed: true } })).body.files.map((f: any) => f.key)
    const notIndexed = (await service.request('GET', '/v1/files', { query: { indexed: false } })).body.files.map((f: any) => f.key)
    expect(indexed.sort()).toEqual(['kb/article.md', 'kb/other.md'])
    expect(notIndexed).toEqual(['kb/stray.md'])
  })
})
