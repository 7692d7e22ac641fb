import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppServices } from '../../http/env.js'
import type { Backend, FileRecord } from '../../store/index.js'
import { openSqliteBackend } from '../../store/sqlite/backend.js'
import { WebhookDelivery } from '../../webhooks/index.js'
import type { Embedder } from '../embedding/index.js'
import { EMBEDDING_TEXT_MAX_LENGTH, embeddingContextOf, embeddingTexts } from './embedding-texts.js'
import { INDEX_FILE_JOB } from './enqueue-indexing.js'
import type { GivenPassage } from './given-passages.js'
import { indexFileJob } from './index-file-job.js'
import { reembedStaleFiles } from './reembed-stale-files.js'

const section = (breadcrumb: string[], ...contents: string[]) => contents.map((content) => ({ content, breadcrumb }))

describe('embeddingTexts', () => {
  const doc = [
    { content: 'Refunds', subtype: 'title' as const, breadcrumb: [] },
    ...section(['Refunds'], 'A', 'B', 'C', 'D'),
    { content: 'Timing', subtype: 'subtitle' as const, breadcrumb: ['Refunds'] },
    ...section(['Refunds', 'Timing'], 'E', 'F'),
  ]

  it('embeds each passage as it is without options', () => {
    expect(embeddingTexts(doc, { breadcrumb: false, contextLevels: 0 })).toEqual(doc.map((passage) => passage.content))
  })

  it('puts the headings above a passage on a line before it', () => {
    const texts = embeddingTexts(doc, { breadcrumb: true, contextLevels: 0 })
    expect(texts[0]).toBe('Refunds')
    expect(texts[1]).toBe('Refunds\n\nA')
    expect(texts[5]).toBe('Refunds\n\nTiming')
    expect(texts[7]).toBe('Refunds > Timing\n\nF')
  })

  it('adds up to n neighbours of the same section on each side, in document order', () => {
    const texts = embeddingTexts(doc, { breadcrumb: false, contextLevels: 2 })
    // B: one before (A; the title above is another section), two after (C, D).
    expect(texts[2]).toBe('A\n\nB\n\nC\n\nD')
    // D: two before; after it comes the "Timing" heading, which opens another section.
    expect(texts[4]).toBe('B\n\nC\n\nD')
    // A heading gets no neighbours.
    expect(texts[5]).toBe('Timing')
    expect(texts[6]).toBe('E\n\nF')
    expect(embeddingTexts(doc, { breadcrumb: true, contextLevels: 1 })[2]).toBe('Refunds\n\nA\n\nB\n\nC')
  })

  it('embeds summaries and image captions alone, and skips them as neighbours', () => {
    const passages = [...section(['S'], 'a', 'b'), { content: 'summary', type: 'summary' as const, breadcrumb: ['S'] }, ...section(['S'], 'c')]
    const texts = embeddingTexts(passages, { breadcrumb: true, contextLevels: 3 })
    expect(texts[2]).toBe('summary')
    expect(texts[1]).toBe('S\n\na\n\nb')
    expect(texts[3]).toBe('S\n\nc')
  })

  it('keeps the passage whole and leaves out the neighbours that would pass the bound', () => {
    const long = 'x'.repeat(EMBEDDING_TEXT_MAX_LENGTH / 2)
    const passages = section(['S'], long, 'near', long, 'far')
    expect(embeddingTexts(passages, { breadcrumb: false, contextLevels: 1 })[1]).toBe(`${long}\n\nnear`)
    const texts = embeddingTexts(passages, { breadcrumb: false, contextLevels: 3 })
    // From "near": the long one before fits; the long one after would pass the bound, so the side ends there.
    expect(texts[1]).toBe(`${long}\n\nnear`)
    expect(texts[1]!.length).toBeLessThanOrEqual(EMBEDDING_TEXT_MAX_LENGTH)
    expect(embeddingTexts([{ content: 'y'.repeat(EMBEDDING_TEXT_MAX_LENGTH + 10), breadcrumb: [] }], { breadcrumb: false, contextLevels: 3 })[0]).toHaveLength(EMBEDDING_TEXT_MAX_LENGTH + 10)
  })

  it("reads a file's chunking options", () => {
    expect(embeddingContextOf({ indexingConfiguration: null })).toEqual({ breadcrumb: true, contextLevels: 0 })
    expect(embeddingContextOf({ indexingConfiguration: { chunking: { maximumChunkLength: 500 } } })).toEqual({ breadcrumb: true, contextLevels: 0 })
    expect(embeddingContextOf({ indexingConfiguration: { chunking: { embedBreadcrumb: false } } })).toEqual({ breadcrumb: false, contextLevels: 0 })
    expect(embeddingContextOf({ indexingConfiguration: { chunking: { embedBreadcrumb: true, embeddedContextLevels: 2 } } })).toEqual({ breadcrumb: true, contextLevels: 2 })
  })
})

/** An embedder that records the texts it is asked to embed. */
function recordingEmbedder(id: string): Embedder & { texts: string[] } {
  const texts: string[] = []
  return {
    id,
    label: 'recording (tests)',
    texts,
    async dimensions() {
      return 2
    },
    async embed(batch) {
      texts.push(...batch)
      return batch.map((_, index) => Float32Array.of(1, index + 1))
    },
  }
}

describe("the indexing job and a reindex embed by the file's chunking options", () => {
  let backend: Backend
  let services: AppServices
  beforeEach(async () => {
    backend = await openSqliteBackend({ memory: true })
    const logger = { log: () => undefined }
    services = { backend, now: () => new Date(), logger, signingKey: Buffer.alloc(32, 1), webhooks: new WebhookDelivery(backend, { logger }) } as unknown as AppServices
  })
  afterEach(async () => {
    await backend.close()
  })

  async function indexGiven(key: string, indexingConfiguration: Record<string, unknown> | null, passages: GivenPassage[], embedder: Embedder): Promise<FileRecord> {
    const { file } = await backend.files.upsert({
      botId: 'bot_1', key, ownerScope: '', owner: { type: 'bot', id: 'bot_1' }, size: 3, contentType: 'text/plain',
      tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null, indexingConfiguration,
    })
    const pending = (await backend.files.completeUpload(file.id, file.version, { blobId: `blob_${key}`, size: 3, sha256: 'x' })).file
    const payload = { fileId: pending.id, generation: pending.indexGeneration, passages }
    await indexFileJob({ embedder }).run({ job: { id: 'j', kind: INDEX_FILE_JOB, payload, attempts: 1, maxAttempts: 5 } as never, payload, attempt: 1, signal: new AbortController().signal, services })
    const indexed = (await backend.files.getById('bot_1', pending.id))!
    expect(indexed.status).toBe('indexing_completed')
    return indexed
  }

  const guide: GivenPassage[] = [{ content: 'Refunds', type: 'title' }, { content: 'Paid back in 14 days.' }, { content: 'Ask support first.' }]

  it('embeds the passages under their headings by default, alone when turned off, with neighbours when asked', async () => {
    const byDefault = recordingEmbedder('rec-a')
    await indexGiven('default.md', null, guide, byDefault)
    expect(byDefault.texts).toEqual(['Refunds', 'Refunds\n\nPaid back in 14 days.', 'Refunds\n\nAsk support first.'])

    const plain = recordingEmbedder('rec-a')
    await indexGiven('plain.md', { chunking: { embedBreadcrumb: false } }, guide, plain)
    expect(plain.texts).toEqual(['Refunds', 'Paid back in 14 days.', 'Ask support first.'])

    const asked = recordingEmbedder('rec-a')
    const file = await indexGiven('asked.md', { chunking: { embedBreadcrumb: true, embeddedContextLevels: 1 } }, guide, asked)
    expect(asked.texts).toEqual(['Refunds', 'Refunds\n\nPaid back in 14 days.\n\nAsk support first.', 'Refunds\n\nPaid back in 14 days.\n\nAsk support first.'])
    // What is stored and searched is still each passage's own text.
    const stored = await backend.search.listPassages({ fileId: file.id, pageSize: 10 })
    expect(stored.items.map((item) => item.content)).toEqual(['Refunds', 'Paid back in 14 days.', 'Ask support first.'])

    // A reindex under another embedder embeds the same texts again.
    const next = recordingEmbedder('rec-b')
    await reembedStaleFiles(backend, next)
    expect(next.texts).toHaveLength(9)
    expect([...next.texts].sort()).toEqual([...byDefault.texts, ...plain.texts, ...asked.texts].sort())
  })
})
