import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as BotpressClient } from '@botpress/client'
import { filesLimits } from '../../src/api/files/index.js'
import type { Client } from '../../src/client/index.js'
import { extractPassages } from '../../server/src/search/extraction/index.js'
import { createFilesFeature } from '../../server/src/files/feature.js'
import type { DocumentExtractor } from '../../server/src/search/indexing/index.js'
import { hashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { startClientService, type ClientTestService } from '../client/service.js'
import { deeplyNestedHtml, randomBytes, sampleDocuments, zipBomb, type SampleDocument } from '../helpers/documents/index.js'
import { settledFile } from './search-helpers.js'

// Every format through the real service on a real port, with botshelf's extractor (worker threads) and both clients.
// Extraction waits at a gate until the test has seen every upload `indexing_pending`.
let service: ClientTestService
let shelf: Client
let botpress: BotpressClient
let releaseGate: () => void = () => {}
const gate = new Promise<void>((resolve) => (releaseGate = resolve))
const gated: DocumentExtractor = async (document, options) => {
  if (document.key.startsWith('bakery/')) await gate
  return extractPassages(document, options)
}

beforeAll(async () => {
  service = await startClientService({
    listen: true,
    jobs: { pollMs: 50 },
    features: [createFilesFeature({ indexing: { extractor: gated, embedder: hashedTestEmbedder(64) } })],
  })
  shelf = service.client('bot')
  botpress = service.botpressClient('bot')
})
afterAll(async () => {
  releaseGate()
  await service.close()
})

/** What `listFilePassages` must show for each sample: [subtype, pageNumber?] in document order. */
const STRUCTURE: Record<SampleDocument['format'], Array<[string, number?]>> = {
  pdf: [['title', 1], ['paragraph', 1], ['title', 2], ['paragraph', 2]],
  docx: [['title'], ['subtitle'], ['paragraph'], ['subtitle'], ['table']],
  pptx: [['title', 1], ['paragraph', 1], ['title', 2], ['paragraph', 2], ['table', 2]],
  xlsx: [['title', 1], ['table', 1], ['title', 2], ['table', 2]],
  html: [['title'], ['paragraph'], ['subtitle'], ['list']],
  markdown: [['title'], ['paragraph'], ['subtitle'], ['list'], ['code']],
  csv: [['table']],
  text: [['paragraph']],
}

/** A query made of the fact's own words, and the breadcrumb of the passage that holds the fact. */
const LOOKUP: Record<SampleDocument['format'], { query: string; breadcrumb?: string }> = {
  pdf: { query: 'sourdough starter twice', breadcrumb: 'Starter care' },
  docx: { query: 'refunds accepted within 30 days', breadcrumb: 'Customer policies > Refunds' },
  pptx: { query: 'second shop Lyon', breadcrumb: 'Roadmap 2027' },
  xlsx: { query: 'Grenoble closes 19:30', breadcrumb: 'Hours' },
  html: { query: 'deliveries villages kilometres', breadcrumb: 'Delivery' },
  markdown: { query: 'hazelnut croissant tree nuts', breadcrumb: 'Allergens' },
  csv: { query: 'Baguette price' },
  text: { query: 'founded 1962 Odette Marchand' },
}

describe('every format through the API', () => {
  it('indexes PDF, DOCX, PPTX, XLSX, HTML, Markdown, CSV and text uploaded by both clients, shows their structure and finds each', async () => {
    const samples = await sampleDocuments()
    const ids = new Map<string, string>()
    for (const [index, sample] of samples.entries()) {
      const { content, contentType, key } = sample.document
      // Half the formats through botshelf's client, half through the official one.
      const uploaded =
        index % 2 === 0
          ? await shelf.uploadFile({ key, content, contentType, index: true })
          : await botpress.uploadFile({ key, content: Buffer.from(content), contentType, index: true })
      ids.set(sample.format, uploaded.file.id)
    }
    // After the content PUT: indexing_pending, never upload_completed.
    for (const sample of samples) {
      const { file } = await botpress.getFile({ id: ids.get(sample.format)! })
      expect([sample.format, file.status]).toEqual([sample.format, 'indexing_pending'])
    }
    releaseGate()
    for (const sample of samples) {
      const done = await settledFile(service, ids.get(sample.format)!)
      expect([sample.format, done.status, done.indexingStack, done.failedStatusReason]).toEqual([sample.format, 'indexing_completed', 'v1', undefined])
    }

    for (const sample of samples) {
      const id = ids.get(sample.format)!
      // Structure through both clients: botshelf's list collection and the official single page.
      const listed = await shelf.list.filePassages({ id }).collect()
      expect([sample.format, listed.map((p) => (p.meta.pageNumber === undefined ? [p.meta.subtype] : [p.meta.subtype, p.meta.pageNumber]))]).toEqual([
        sample.format,
        STRUCTURE[sample.format],
      ])
      expect(listed.map((p) => p.meta.position)).toEqual(listed.map((_, i) => i))
      const official = await botpress.listFilePassages({ id })
      expect(official.passages.map((p) => p.content)).toEqual(listed.map((p) => p.content))
      expect(listed.some((p) => p.content.toLowerCase().includes(sample.fact.toLowerCase()))).toBe(true)

      // Found by its own words, through both clients, with the heading path as breadcrumb.
      const { query, breadcrumb } = LOOKUP[sample.format]
      const found = await shelf.searchFiles({ query, withContext: true, includeBreadcrumb: true, limit: 3 })
      const top = found.passages[0]!
      expect([sample.format, top.file.key]).toEqual([sample.format, sample.document.key])
      expect(top.content.toLowerCase()).toContain(sample.fact.toLowerCase())
      const crumb = top.context?.find((entry) => entry.type === 'breadcrumb')
      expect([sample.format, crumb?.text]).toEqual([sample.format, breadcrumb])
      const viaBotpress = await botpress.searchFiles({ query, limit: 3 })
      expect([sample.format, viaBotpress.passages[0]?.file.key]).toEqual([sample.format, sample.document.key])
    }

    // HTML: scripts, navigation and footer are not indexed.
    const html = (await shelf.list.filePassages({ id: ids.get('html')! }).collect()).map((p) => p.content).join('\n')
    expect(html).not.toContain('do not index')
    expect(html).not.toContain('Home | Shop')
    expect(html).not.toContain('Copyright')
    const indexed = await botpress.listFiles({ indexed: true } as never)
    expect(indexed.files.map((f) => f.key).sort()).toEqual(samples.map((s) => s.document.key).sort())
  })

  it('ends hostile documents indexing_failed with a reason while /health keeps answering', async () => {
    const hostile = [
      { document: zipBomb('docx'), reason: /inflat|too large|bytes/i },
      { document: randomBytes(64 * 1024, 7, 'application/pdf', 'random.pdf'), reason: /random\.pdf/ },
      { document: deeplyNestedHtml(100_000), reason: /deep/i },
      { document: { content: new Uint8Array(), contentType: 'text/plain', key: 'empty.txt' }, reason: /empty/i },
    ]
    const ids: string[] = []
    for (const { document } of hostile) {
      const { file } = await shelf.uploadFile({ key: `hostile/${document.key}`, content: document.content, contentType: document.contentType, index: true })
      ids.push(file.id)
    }
    // /health answers while the documents are refused.
    let healthChecks = 0
    let settled = false
    const watcher = (async () => {
      while (!settled) {
        const health = await fetch(`${service.url}/health`)
        expect(health.status).toBe(200)
        healthChecks++
        // Kept real: it paces the probe beside the refusals (the test waits on the documents, not on this).
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })()
    try {
      for (const [index, { document, reason }] of hostile.entries()) {
        const done = await settledFile(service, ids[index]!)
        expect([document.key, done.status]).toEqual([document.key, 'indexing_failed'])
        expect(done.failedStatusReason).toMatch(reason)
      }
    } finally {
      settled = true
      await watcher
    }
    expect(healthChecks).toBeGreaterThan(0)
    expect((await fetch(`${service.url}/health`)).status).toBe(200)
  })

  it(`does not index a file over 95 MB: indexing_failed naming the limit, no passages`, async () => {
    const size = filesLimits.indexableMaxBytes + 1
    const chunk = new Uint8Array(1024 * 1024).fill(0x61)
    async function* body() {
      for (let sent = 0; sent < size; sent += chunk.byteLength) yield sent + chunk.byteLength <= size ? chunk : chunk.subarray(0, size - sent)
    }
    const { file } = await shelf.uploadFile({ key: 'huge.txt', content: Readable.from(body()), size, contentType: 'text/plain', index: true })
    const done = await settledFile(service, file.id)
    expect(done.size).toBe(size)
    expect(done.status).toBe('indexing_failed')
    expect(done.failedStatusReason).toContain(`files over 95 MB (${filesLimits.indexableMaxBytes} bytes) are not indexed`)
    expect((await shelf.list.filePassages({ id: file.id }).collect())).toEqual([])
  }, 120_000)
})
