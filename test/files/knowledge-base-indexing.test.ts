import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as BotpressClient } from '@botpress/client'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { hashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { markdownTestExtractor } from '../../server/src/search/indexing/markdown-extractor.test-support.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settledFile } from './search-helpers.js'

// The knowledge-base rules (decision 1436) through the official client: a file linked to a knowledge base is
// indexed, whether the tags come at upload (even with index: false) or later through updateFileMetadata.
let service: TestService
let client: BotpressClient
let kbId: string

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    jobs: { pollMs: 20 },
    features: [createFilesFeature({ indexing: { extractor: markdownTestExtractor, embedder: hashedTestEmbedder(64) } })],
  })
  client = service.botpressClient('bot')
  kbId = (await client.createKnowledgeBase({ name: 'Help center' })).knowledgeBase.id
})
afterAll(async () => {
  await service?.close()
})

describe('linking a file to a knowledge base', () => {
  it('tags added later with updateFileMetadata index an uploaded file, and the answer shows index: true', async () => {
    const { file } = await client.uploadFile({ key: 'kb/reset.md', content: 'Resetting a password sends a magpiecode by mail.' })
    expect((await settledFile(service, file.id)).status).toBe('upload_completed')
    expect((await client.searchFiles({ query: 'magpiecode' })).passages).toEqual([])

    const { file: linked } = await client.updateFileMetadata({ id: file.id, tags: { source: 'knowledge-base', kbId } })
    expect(linked).toMatchObject({ index: true, status: 'indexing_pending' })
    expect(await settledFile(service, file.id)).toMatchObject({ index: true, status: 'indexing_completed' })
    const found = await client.searchFiles({ query: 'magpiecode' })
    expect(found.passages.map((passage) => passage.file.key)).toEqual(['kb/reset.md'])
  })

  it('a file linked before its content lands is indexed when the content lands', async () => {
    const { file } = await client.upsertFile({ key: 'kb/later.md', size: 32, contentType: 'text/markdown' })
    const { file: linked } = await client.updateFileMetadata({ id: file.id, tags: { source: 'knowledge-base', kbId } })
    expect(linked).toMatchObject({ index: true, status: 'upload_pending' })
    expect((await fetch(file.uploadUrl, { method: 'PUT', body: 'Invoices list the ibexnumber too' })).status).toBe(200)
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
  })

  it('tags at upload with index: false are accepted and the file is indexed all the same', async () => {
    const { file } = await client.uploadFile({ key: 'kb/forced.md', content: 'Refunds take a lemurweek.', index: false, tags: { source: 'knowledge-base', kbId } })
    expect(file.index).toBe(true)
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
  })

  it('tags naming no knowledge base, or other tag changes, leave a file unindexed', async () => {
    const { file } = await client.uploadFile({ key: 'kb/stray.md', content: 'Nothing to see.' })
    const { file: stray } = await client.updateFileMetadata({ id: file.id, tags: { source: 'knowledge-base', kbId: 'kb_missing', team: 'a' } })
    expect(stray).toMatchObject({ index: false, status: 'upload_completed' })
  })

  it('deleting the knowledge base leaves its files, their tags and their passages as they are', async () => {
    const other = (await client.createKnowledgeBase({ name: 'Old center' })).knowledgeBase.id
    const { file } = await client.uploadFile({ key: 'kb/old.md', content: 'The old center lists the narwhalhours.', tags: { source: 'knowledge-base', kbId: other } })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    await client.deleteKnowledgeBase({ id: other })
    expect((await client.getFile({ id: file.id })).file).toMatchObject({ index: true, status: 'indexing_completed', tags: { source: 'knowledge-base', kbId: other } })
    expect((await client.searchFiles({ query: 'narwhalhours' })).passages.map((passage) => passage.file.key)).toEqual(['kb/old.md'])
    // What bot code does to remove them with it: list the files by the tag and delete each.
    const { files } = await client.listFiles({ tags: { kbId: other } })
    for (const listed of files) await client.deleteFile({ id: listed.id })
    expect((await client.searchFiles({ query: 'narwhalhours' })).passages).toEqual([])
  })
})
