import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as BotpressClient } from '@botpress/client'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { createOpenAiCompatibleLanguageModel } from '../../server/src/language-model/index.js'
import { chatCompletion, lastUserText, startFakeChatServer, type ReceivedChatRequest } from '../../server/src/language-model/fake-chat-server.test-support.js'
import { extractPassages } from '../../server/src/search/extraction/index.js'
import { hashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { pdfDocument } from '../helpers/documents/index.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settledFile } from './search-helpers.js'

// Indexing options with a language model (decision 1435): the real service on a real port, botshelf's extractor,
// the official client, and a fake OpenAI-compatible chat service that answers by what it is asked.
let fake: Awaited<ReturnType<typeof startFakeChatServer>>
let service: TestService
let client: BotpressClient

const systemText = (body: ReceivedChatRequest['body']): string => String(body.messages?.find((message) => message.role === 'system')?.content ?? '')
const asked = (kind: 'repair' | 'summar' | 'describe') => fake.requests.filter((request) => systemText(request.body).includes(kind === 'describe' ? 'describe images' : kind))

beforeAll(async () => {
  fake = await startFakeChatServer()
  fake.reply((body) => {
    const system = systemText(body)
    const user = lastUserText(body)
    if (system.includes('describe images')) {
      if (user.includes('refused.png')) return { status: 400, body: { error: { message: 'this model does not accept image input' } } }
      return chatCompletion('A lighthouse diagram labelled quokkalamp, with a red beam.')
    }
    if (system.includes('transcribe pages')) return chatCompletion('Connect the brown lead to terminal L.')
    if (system.includes('what a page of a document shows')) return chatCompletion(`A wiring diagram of the gorsewick oven, page ${/page (\d+)/.exec(user)?.[1]}.`)
    if (system.includes('summar')) return chatCompletion(user.includes('the whole') ? 'The handbook covers kestrelvane warranty and shipping rules.' : 'Claims under the zephyrquill warranty need a receipt.')
    if (system.includes('repair')) return chatCompletion(`${user.replace(/brok- en/g, 'broken')} (repaired)`)
    return chatCompletion('ok')
  })
  service = await startTestService({
    listen: true,
    jobs: { pollMs: 20 },
    languageModel: createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-vision', maxRetries: 0 }),
    features: [createFilesFeature({ indexing: { extractor: extractPassages, embedder: hashedTestEmbedder(64) } })],
  })
  client = service.botpressClient('bot')
})
afterAll(async () => {
  await service?.close()
  await fake?.close()
})

const sentence = 'Every claim names the product, the date of purchase and the fault seen, and keeps the receipt. '
const HANDBOOK = `# Warranty\n\n${sentence.repeat(12).trim()}\n\n# Shipping\n\nParcels leave within two days.`
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

async function passagesOf(fileId: string) {
  return (await client.listFilePassages({ id: fileId })).passages
}

describe('summarization with a language model', () => {
  it('adds a summary passage per long section and one of the whole document, found by searchFiles', async () => {
    const { file } = await client.uploadFile({
      key: 'handbook.md',
      content: HANDBOOK,
      index: true,
      indexing: { configuration: { summarization: { enable: true, generateMasterSummary: true, outputTokenLimit: 1500 } } },
    })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBeUndefined()
    const summaries = (await passagesOf(file.id)).filter((passage) => passage.meta.type === 'summary')
    // The short "Shipping" section (under minimumInputLength, 1000 characters) gets none of its own.
    expect(summaries.map((passage) => passage.content)).toEqual(['The handbook covers kestrelvane warranty and shipping rules.', 'Claims under the zephyrquill warranty need a receipt.'])
    expect(asked('summar').every((request) => request.body.max_tokens === 1500)).toBe(true)
    const found = await client.searchFiles({ query: 'zephyrquill' })
    expect(found.passages[0]).toMatchObject({ content: 'Claims under the zephyrquill warranty need a receipt.', meta: { type: 'summary' }, file: { key: 'handbook.md' } })
  })
})

describe('vision for image files', () => {
  it('indexes an image by the caption the model writes of it, as an image passage', async () => {
    const { file } = await client.uploadFile({ key: 'diagrams/beam.png', content: PNG, contentType: 'image/png', index: true })
    const done = await settledFile(service, file.id)
    expect(done).toMatchObject({ status: 'indexing_completed', index: true })
    expect(await passagesOf(file.id)).toEqual([
      { id: expect.any(String), content: 'A lighthouse diagram labelled quokkalamp, with a red beam.', meta: { type: 'image', subtype: 'image', position: 0 } },
    ])
    const request = asked('describe').find((entry) => lastUserText(entry.body).includes('beam.png'))
    const parts = request?.body.messages?.at(-1)?.content as Array<{ type: string; image_url?: { url: string } }>
    expect(parts.find((part) => part.type === 'image_url')?.image_url?.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`)
    const found = await client.searchFiles({ query: 'quokkalamp lighthouse' })
    expect(found.passages[0]).toMatchObject({ meta: { type: 'image' }, file: { key: 'diagrams/beam.png' } })
  })

  it('ends indexing_failed with the reason when the model refuses the image', async () => {
    const { file } = await client.uploadFile({ key: 'refused.png', content: PNG, index: true })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_failed')
    expect(done.failedStatusReason).toContain('the language model could not describe the image (it must accept images')
    expect(done.failedStatusReason).toContain('this model does not accept image input')
  })
})

describe('parsing options', () => {
  it('smartCleanup has the model repair the passages of a PDF, and is ignored for other formats', async () => {
    const pdf = await pdfDocument([[{ heading: 'Starter care', paragraphs: ['The starter is brok- en in two jars and fed twice a day.'] }]])
    const { file } = await client.uploadFile({ key: 'care.pdf', content: pdf.content, contentType: pdf.contentType, index: true, indexing: { configuration: { parsing: { smartCleanup: true } } } })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    const passages = await passagesOf(file.id)
    expect(passages.map((passage) => [passage.meta.subtype, passage.content])).toEqual([
      ['title', 'Starter care'],
      ['paragraph', 'The starter is broken in two jars and fed twice a day. (repaired)'],
    ])

    const before = asked('repair').length
    const { file: notes } = await client.uploadFile({ key: 'notes.md', content: 'The oven is brok- en.', index: true, indexing: { configuration: { parsing: { smartCleanup: true } } } })
    expect((await settledFile(service, notes.id)).failedStatusReason).toBeUndefined()
    expect((await passagesOf(notes.id)).map((passage) => passage.content)).toEqual(['The oven is brok- en.'])
    expect(asked('repair').length).toBe(before)
  })

  it("mode 'agent' has the model repair the passages of any format; headings stay as extracted", async () => {
    const { file } = await client.uploadFile({ key: 'agent.md', content: '# Ovens\n\nThe oven is brok- en.', index: true, indexing: { configuration: { parsing: { mode: 'agent' } } } })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    expect((await passagesOf(file.id)).map((passage) => passage.content)).toEqual(['Ovens', 'The oven is broken. (repaired)'])
  })

  it('minimumParagraphLength merges a short paragraph into the next one of its section', async () => {
    const { file } = await client.uploadFile({
      key: 'short.md',
      content: '# Hours\n\nOpen daily.\n\nThe shop opens at seven and closes at nineteen thirty, every day of the week.\n\n# Prices\n\nBread is three euros.',
      index: true,
      indexing: { configuration: { parsing: { minimumParagraphLength: 50 } } },
    })
    expect((await settledFile(service, file.id)).status).toBe('indexing_completed')
    expect((await passagesOf(file.id)).map((passage) => passage.content)).toEqual([
      'Hours',
      'Open daily.\n\nThe shop opens at seven and closes at nineteen thirty, every day of the week.',
      'Prices',
      'Bread is three euros.',
    ])
  })

  it('vision on a PDF: an indexed page gets an image/page passage from its rendered image, a transcribed page the model\'s text', async () => {
    const pdf = await pdfDocument([[{ heading: 'Oven manual', paragraphs: ['Preheat for twenty minutes.'] }], [{ heading: 'Wiring', paragraphs: ['See the diagram.'] }]], { key: 'manual.pdf' })
    const before = fake.requests.length
    // The official client types the page options as objects; the wire takes true or page numbers.
    const { file } = await client.uploadFile({
      key: 'manual.pdf',
      content: pdf.content,
      index: true,
      indexing: { configuration: { vision: { indexPages: [1] as never, transcribePages: [2] as never } } },
    })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBeUndefined()
    expect((await passagesOf(file.id)).map((passage) => [passage.meta.type, passage.meta.subtype, passage.meta.pageNumber, passage.content])).toEqual([
      ['chunk', 'title', 1, 'Oven manual'],
      ['chunk', 'paragraph', 1, 'Preheat for twenty minutes.'],
      ['image', 'page', 1, 'A wiring diagram of the gorsewick oven, page 1.'],
      ['chunk', 'paragraph', 2, 'Connect the brown lead to terminal L.'],
    ])
    const pages = fake.requests.slice(before).map((request) => (request.body.messages?.at(-1)?.content as Array<{ type: string; image_url?: { url: string } }>).find((part) => part.type === 'image_url')?.image_url?.url)
    expect(pages).toHaveLength(2)
    expect(pages.every((url) => url?.startsWith('data:image/png;base64,iVBORw0KGgo'))).toBe(true)
    const found = await client.searchFiles({ query: 'gorsewick wiring diagram' })
    expect(found.passages[0]).toMatchObject({ content: 'A wiring diagram of the gorsewick oven, page 1.', meta: { type: 'image', subtype: 'page', pageNumber: 1 }, file: { key: 'manual.pdf' } })
  })

})
