import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { blankPagesPdf, drawingPdf, pdfDocument, type GeneratedDocument } from '../../../../test/helpers/documents/index.js'
import type { Backend, FileRecord } from '../../store/index.js'
import { openSqliteBackend } from '../../store/sqlite/backend.js'
import type { AppServices } from '../../http/env.js'
import { createOpenAiCompatibleLanguageModel, unconfiguredLanguageModel, type LanguageModel } from '../../language-model/index.js'
import { chatCompletion, lastUserText, startFakeChatServer, type ReceivedChatRequest } from '../../language-model/fake-chat-server.test-support.js'
import { closeExtractionWorkers, extractPassages, renderPdfPages } from '../extraction/index.js'
import { INDEX_FILE_JOB, enqueueIndexing } from './enqueue-indexing.js'
import { failDeadIndexingJobs, indexFileJob } from './index-file-job.js'
import { applyPageVision, IndexingNotes, NO_LANGUAGE_MODEL, type PdfPageRenderer } from './options/index.js'
import { WebhookDelivery } from '../../webhooks/index.js'

let backend: Backend
let services: AppServices
const logs: Array<{ level: string; message: string }> = []

beforeEach(async () => {
  backend = await openSqliteBackend({ memory: true })
  logs.length = 0
  const logger = { log: (level: string, message: string) => void logs.push({ level, message }) }
  // The real outbox: indexing outcomes record their storage events through it (none here: no subscription).
  services = { backend, now: () => new Date(), logger, signingKey: Buffer.alloc(32, 1), webhooks: new WebhookDelivery(backend, { logger }) } as unknown as AppServices
})
afterEach(async () => {
  await backend.close()
})
afterAll(() => closeExtractionWorkers())

async function pendingFile(key: string): Promise<FileRecord> {
  const { file } = await backend.files.upsert({
    botId: 'bot_1', key, ownerScope: '', owner: { type: 'bot', id: 'bot_1' }, size: 3, contentType: 'text/plain',
    tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null,
  })
  return (await backend.files.completeUpload(file.id, file.version, { blobId: `blob_${key}`, size: 3, sha256: 'x' })).file
}

describe('failDeadIndexingJobs', () => {
  it('fails the file of an indexing job that went dead without an outcome, once', async () => {
    const file = await pendingFile('dead.md')
    await backend.transaction((tx) => enqueueIndexing(tx, file))
    // A worker claimed it and died on its only attempt: the next claim buries it.
    const [queued] = await backend.jobs.list({ kind: INDEX_FILE_JOB })
    expect(queued).toBeDefined()
    const claimed = await backend.jobs.claim({ workerId: 'w', kinds: [INDEX_FILE_JOB], leaseMs: 1000 })
    await backend.jobs.fail(claimed!.id, 'w', { error: 'the worker was killed', retry: false })
    expect(await failDeadIndexingJobs(services)).toBe(1)
    const failed = await backend.files.getById('bot_1', file.id)
    expect(failed).toMatchObject({ status: 'indexing_failed' })
    expect(failed!.failedStatusReason).toMatch(/^indexing stopped after 1 attempts: the worker was killed/)
    expect(await failDeadIndexingJobs(services)).toBe(0)
  })
})

describe('indexFileJob', () => {
  it('does nothing for a superseded request, and fails with a reason when no extractor is configured', async () => {
    const file = await pendingFile('stale.md')
    const job = indexFileJob({})
    const run = (generation: number) =>
      job.run({ job: { id: 'j', kind: INDEX_FILE_JOB, payload: { fileId: file.id, generation }, attempts: 1, maxAttempts: 5 } as never, payload: { fileId: file.id, generation }, attempt: 1, signal: new AbortController().signal, services })
    await run(file.indexGeneration - 1)
    expect((await backend.files.getById('bot_1', file.id))!.status).toBe('indexing_pending')
    await run(file.indexGeneration)
    const failed = await backend.files.getById('bot_1', file.id)
    expect(failed!.status).toBe('indexing_failed')
    expect(failed!.failedStatusReason).toMatch(/no document extractor configured/)
  })
})

// PDF page vision (decision 1481): the real extractor and page rendering (worker threads), the real
// OpenAI-compatible adapter, and a fake chat service that answers by what it is asked.
describe('indexFileJob with vision on a PDF', () => {
  let fake: Awaited<ReturnType<typeof startFakeChatServer>>
  const systemText = (body: ReceivedChatRequest['body']) => String(body.messages?.find((message) => message.role === 'system')?.content ?? '')
  const imageUrls = (request: ReceivedChatRequest) =>
    ((request.body.messages?.at(-1)?.content ?? []) as Array<{ type: string; image_url?: { url: string } }>).filter((part) => part.type === 'image_url').map((part) => part.image_url!.url)

  beforeAll(async () => {
    fake = await startFakeChatServer()
    fake.reply((body) => {
      const page = /page (\d+)/.exec(lastUserText(body))?.[1]
      if (systemText(body).includes('transcribe pages')) return chatCompletion(`Transcribed heading of page ${page}\n\nTranscribed text: the quillfern valve of page ${page} opens at noon.`)
      if (systemText(body).includes('what a page of a document shows')) return chatCompletion(`A cutaway drawing of the brassmoth pump, on page ${page}.`)
      return chatCompletion('ok')
    })
  })
  afterAll(async () => {
    await fake?.close()
  })

  async function pendingPdf(doc: GeneratedDocument, configuration: Record<string, unknown>): Promise<FileRecord> {
    const { blobId } = await backend.blobs.write((async function* () { yield doc.content })())
    const { file } = await backend.files.upsert({
      botId: 'bot_1', key: doc.key, ownerScope: '', owner: { type: 'bot', id: 'bot_1' }, size: doc.content.byteLength, contentType: doc.contentType,
      tags: {}, metadata: {}, accessPolicies: [], index: true, expiresAt: null, indexingConfiguration: configuration,
    })
    return (await backend.files.completeUpload(file.id, file.version, { blobId, size: doc.content.byteLength, sha256: 'x' })).file
  }

  async function index(file: FileRecord, languageModel: LanguageModel = createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-vision', maxRetries: 0 })) {
    const withModel = { ...services, languageModel } as AppServices
    const payload = { fileId: file.id, generation: file.indexGeneration }
    await indexFileJob({ extractor: extractPassages }).run({ job: { id: 'j', kind: INDEX_FILE_JOB, payload, attempts: 1, maxAttempts: 5 } as never, payload, attempt: 1, signal: new AbortController().signal, services: withModel })
    const done = (await backend.files.getById('bot_1', file.id))!
    const passages = (await backend.search.listPassages({ fileId: file.id, pageSize: 100 })).items
    return { done, passages: passages.map((passage) => [passage.type, passage.subtype, passage.pageNumber, passage.content]) }
  }

  const manual = (key = 'pump.pdf') =>
    pdfDocument([[{ heading: 'Pump manual', paragraphs: ['Prime the pump before use.'] }], [{ heading: 'Valves', paragraphs: ['Extracted text of the second page.'] }]], { key })

  it('transcribes every page in place of its text and adds an image/page passage for an indexed page; pages it lacks are noted', async () => {
    const before = fake.requests.length
    const file = await pendingPdf(await manual(), { vision: { transcribePages: true, indexPages: [1, 5] } })
    const { done, passages } = await index(file)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBe('indexed without vision of page 5: the document has 2 pages')
    expect(passages).toEqual([
      ['chunk', 'paragraph', 1, 'Transcribed heading of page 1\n\nTranscribed text: the quillfern valve of page 1 opens at noon.'],
      ['image', 'page', 1, 'A cutaway drawing of the brassmoth pump, on page 1.'],
      ['chunk', 'paragraph', 2, 'Transcribed heading of page 2\n\nTranscribed text: the quillfern valve of page 2 opens at noon.'],
    ])
    // Three requests, each with one PNG page image as a data: URL.
    const asked = fake.requests.slice(before)
    expect(asked).toHaveLength(3)
    for (const request of asked) {
      const [url] = imageUrls(request)
      expect(url).toMatch(/^data:image\/png;base64,/)
      expect(Buffer.from(url!.slice('data:image/png;base64,'.length), 'base64').subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    }
  })

  it('leaves the pages not asked as extracted, and puts the page passage after its page text', async () => {
    const file = await pendingPdf(await manual(), { vision: { indexPages: [2] } })
    const { done, passages } = await index(file)
    expect(done.failedStatusReason).toBeNull()
    expect(passages).toEqual([
      ['chunk', 'title', 1, 'Pump manual'],
      ['chunk', 'paragraph', 1, 'Prime the pump before use.'],
      ['chunk', 'title', 2, 'Valves'],
      ['chunk', 'paragraph', 2, 'Extracted text of the second page.'],
      ['image', 'page', 2, 'A cutaway drawing of the brassmoth pump, on page 2.'],
    ])
  })

  it('indexes a PDF without a text layer from the transcription of its pages', async () => {
    const scan = await drawingPdf([{ width: 300, height: 400, box: { x: 20, y: 20, width: 100, height: 100 } }], 'scan.pdf')
    const file = await pendingPdf(scan, { vision: { transcribePages: [1] } })
    const { done, passages } = await index(file)
    expect(done.status).toBe('indexing_completed')
    expect(passages).toEqual([['chunk', 'paragraph', 1, 'Transcribed heading of page 1\n\nTranscribed text: the quillfern valve of page 1 opens at noon.']])
  })

  it('without a language model: the text is indexed and the file says why vision was not applied; a scan fails with both reasons', async () => {
    const file = await pendingPdf(await manual(), { vision: { transcribePages: true } })
    const { done, passages } = await index(file, unconfiguredLanguageModel)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBe(`indexed without vision: ${NO_LANGUAGE_MODEL}`)
    expect(passages.map((row) => row[3])).toEqual(['Pump manual', 'Prime the pump before use.', 'Valves', 'Extracted text of the second page.'])

    const scan = await pendingPdf(await drawingPdf([{ width: 300, height: 400, box: { x: 20, y: 20, width: 100, height: 100 } }], 'blank-scan.pdf'), { vision: { transcribePages: true } })
    const failed = await index(scan, unconfiguredLanguageModel)
    expect(failed.done.status).toBe('indexing_failed')
    expect(failed.done.failedStatusReason).toMatch(/^blank-scan\.pdf has no text to index \(PDF; .*\); indexed without vision: no language model is configured/)
  })

  it('a model that refuses the image leaves the text and a note; an unavailable one keeps the file pending', async () => {
    const file = await pendingPdf(await manual(), { vision: { indexPages: true } })
    fake.answer({ status: 400, body: { error: { message: 'this model does not accept image input' } } })
    const refused = await index(file)
    expect(refused.done.status).toBe('indexing_completed')
    expect(refused.done.failedStatusReason).toMatch(/^indexed without vision: the language model refused \(LANGUAGE_MODEL_REJECTED\): .*this model does not accept image input$/)
    expect(refused.passages.every((row) => row[0] === 'chunk')).toBe(true)

    const again = await pendingPdf(await manual('pump-later.pdf'), { vision: { indexPages: true } })
    fake.outage({ status: 503, headers: { 'retry-after': '1' } })
    try {
      const waiting = await index(again)
      expect(waiting.done.status).toBe('indexing_pending')
      expect(waiting.passages).toEqual([])
      expect(await backend.jobs.list({ kind: INDEX_FILE_JOB })).toHaveLength(1)
    } finally {
      fake.outage(undefined)
    }
  })
})

describe('applyPageVision', () => {
  const signal = new AbortController().signal
  const describing = { complete: async () => ({ text: 'A blank page.', model: 'm' }) }

  it('notes pages that cannot be rendered and keeps the passages', async () => {
    const notes = new IndexingNotes()
    const passages = [{ content: 'Kept', subtype: 'paragraph' as const, pageNumber: 1, breadcrumb: [] }]
    const doc = await pdfDocument([[{ heading: 'A', paragraphs: ['b'] }]])
    const out = await applyPageVision(passages, { indexPages: [1], content: doc.content.subarray(0, 200), key: 'cut.pdf', model: describing, signal, maximumChunkLength: 1000, notes })
    expect(out).toEqual(passages)
    expect(notes.text()).toMatch(/^indexed without vision: the PDF pages could not be rendered to images: cut\.pdf could not be read as a PDF/)
  })

  it('renders a batch of pages at a time up to the cap, and notes the pages over it', async () => {
    const doc = await blankPagesPdf(12)
    const batches: number[][] = []
    const render: PdfPageRenderer = async (input, options) => {
      const rendered = await renderPdfPages(input, options)
      batches.push(rendered.pages.map((page) => page.pageNumber))
      return rendered
    }
    const notes = new IndexingNotes()
    const out = await applyPageVision([], { indexPages: true, content: doc.content, key: doc.key, model: describing, signal, maximumChunkLength: 1000, notes, render, maxPages: 11 })
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11]])
    expect(out.map((passage) => [passage.type, passage.subtype, passage.pageNumber])).toEqual(Array.from({ length: 11 }, (_, index) => ['image', 'page', index + 1]))
    expect(notes.text()).toBe('indexed without vision of page 12: at most the first 11 pages asked of a file are read as images')
  })
})
