/**
 * The relevance score and floor of `searchFiles` end to end (decisions 1431, 1432), through the real server with the
 * offline default embedder the score is calibrated for, on the run's engine (SQLite or PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { createOfflineEmbedder, type Embedder } from '../../server/src/search/embedding/index.js'
import { markdownTestExtractor } from '../../server/src/search/indexing/markdown-extractor.test-support.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { uploadText } from './helpers.js'
import { settledFile } from './search-helpers.js'

let service: TestService
let embedder: Embedder

const DOCUMENTS: ReadonlyArray<readonly [string, string]> = [
  ['refunds.md', '# Refunds\n\nRefunds are issued to the original payment method within 14 days after the warehouse receives your parcel.'],
  ['returns.md', '# Returns\n\nYou can return an unworn item within 30 days of delivery, with its original tags attached.'],
  ['shipping.md', '# Shipping\n\nStandard delivery takes three to five business days. Express orders placed before 2 pm arrive the next day.'],
  ['password.md', '# Password\n\nClick "Forgot password" on the sign-in page; we send a link that stays valid for one hour.'],
  ['tents.md', '# Tents\n\nLet your tent dry completely before packing it away; a damp tent grows mould within days.'],
  ['beacon.md', 'Version one says seabadger lanterns guide the boats home.'],
]

const search = async (query: string, extra: Record<string, unknown> = {}): Promise<Array<{ content: string; score: number; file: { key: string } }>> => {
  const res = await service.request('GET', '/v1/files/search', { query: { query, ...extra } })
  expect(res.status).toBe(200)
  return res.body.passages
}

beforeAll(async () => {
  embedder = await createOfflineEmbedder()
  service = await startTestService({ jobs: { pollMs: 20 }, features: [createFilesFeature({ indexing: { extractor: markdownTestExtractor, embedder } })] })
  for (const [key, content] of DOCUMENTS) {
    const { file } = await uploadText(service, key, content, { index: true })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
  }
})

afterAll(async () => {
  await service?.close()
})

describe('the relevance score and floor of searchFiles', () => {
  it('answers a nonsense query with no passage at all', async () => {
    expect(await search('zzzqqq xylophone')).toEqual([])
    expect(await search('blorptangle fizzwhack')).toEqual([])
  })

  it('scores in [0, 1] and orders results by score', async () => {
    for (const query of ['how long until my refund arrives?', 'delivery', 'tent mould', 'when does my parcel arrive', 'how do I get my money back?']) {
      const passages = await search(query, { limit: 50 })
      for (const passage of passages) {
        expect(passage.score).toBeGreaterThanOrEqual(0)
        expect(passage.score).toBeLessThanOrEqual(1)
      }
      for (let i = 1; i < passages.length; i++) expect(passages[i - 1]!.score).toBeGreaterThanOrEqual(passages[i]!.score)
    }
    const [refund] = await search('how long do refunds take?')
    expect(refund?.file.key).toBe('refunds.md')
  })

  it('scores the passage of an exact rare-term query 0.7 or more', async () => {
    const [top] = await search('seabadger')
    expect(top?.file.key).toBe('beacon.md')
    expect(top!.score).toBeGreaterThanOrEqual(0.7)
  })

  it('keeps the score of a passage for a query within 0.05 when 50 unrelated documents are added', async () => {
    const queries = ['how long do refunds take?', 'seabadger', 'forgot password link']
    const before = await Promise.all(queries.map((query) => search(query)))
    const bulk = Array.from({ length: 50 }, (_, i) => `Note ${i}: the choir rehearses madrigals on Thursday evenings in the old chapel, hall ${i}.`)
    const vectors = await embedder.embed(bulk, { purpose: 'passage' })
    for (const [i, content] of bulk.entries()) {
      const { file } = await uploadText(service, `unrelated/${i}.md`, content)
      await service.backend.search.replacePassages({
        fileId: file.id,
        botId: service.botId,
        embedderId: embedder.id,
        passages: [{ content, subtype: 'paragraph', breadcrumb: [], vector: vectors[i]! }],
      })
    }
    const after = await Promise.all(queries.map((query) => search(query)))
    for (const [q, results] of before.entries()) {
      expect(results.length).toBeGreaterThan(0)
      const top = results[0]!
      const again = after[q]!.find((passage) => passage.content === top.content && passage.file.key === top.file.key)
      expect(again, queries[q]).toBeDefined()
      expect(Math.abs(again!.score - top.score)).toBeLessThanOrEqual(0.05)
    }
  })

  it('does not return a re-uploaded file for a word only its old version held', async () => {
    const first = await uploadText(service, 'lighthouse.md', 'The keeper lights the quillwhistle lamp at dusk.', { index: true })
    expect((await settledFile(service, first.file.id)).status).toBe('indexing_completed')
    expect((await search('quillwhistle')).map((passage) => passage.file.key)).toContain('lighthouse.md')
    const second = await uploadText(service, 'lighthouse.md', 'Version two says otterbeacon.', { index: true })
    expect((await settledFile(service, second.file.id)).status).toBe('indexing_completed')
    expect((await search('quillwhistle')).map((passage) => passage.file.key)).not.toContain('lighthouse.md')
    expect((await search('otterbeacon'))[0]?.file.key).toBe('lighthouse.md')
  })
})
