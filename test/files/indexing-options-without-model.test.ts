import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as BotpressClient } from '@botpress/client'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { unconfiguredLanguageModel } from '../../server/src/language-model/index.js'
import { extractPassages } from '../../server/src/search/extraction/index.js'
import { hashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { settledFile } from './search-helpers.js'

// Indexing options on a server without a language model (decision 1435): the file is indexed without what needs a
// model, and says which options were not applied; an image cannot be indexed and says why.
let service: TestService
let client: BotpressClient

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    jobs: { pollMs: 20 },
    languageModel: unconfiguredLanguageModel,
    features: [createFilesFeature({ indexing: { extractor: extractPassages, embedder: hashedTestEmbedder(64) } })],
  })
  client = service.botpressClient('bot')
})
afterAll(async () => {
  await service?.close()
})

const NO_MODEL = 'no language model is configured (start the server with --llm-url and --llm-model, or BOTSHELF_LLM_URL and BOTSHELF_LLM_MODEL)'

describe('indexing options without a language model', () => {
  it('indexes the document without summaries or cleanup, and its status reason names the options not applied', async () => {
    const content = `# Warranty\n\n${'Claims under the falconclause need the receipt and the date of purchase. '.repeat(20).trim()}`
    const { file } = await client.uploadFile({
      key: 'warranty.md',
      content,
      index: true,
      // vision concerns PDFs only: ignored here, so not noted either.
      indexing: { configuration: { parsing: { mode: 'agent', minimumParagraphLength: 50 }, summarization: { enable: true }, vision: { indexPages: true as never } } },
    })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBe(`indexed without parsing.mode agent, summarization: ${NO_MODEL}`)
    const { passages } = await client.listFilePassages({ id: file.id })
    expect(new Set(passages.map((passage) => passage.meta.type))).toEqual(new Set(['chunk']))
    expect((await client.searchFiles({ query: 'falconclause' })).passages[0]?.file.key).toBe('warranty.md')
  })

  it('a plain indexed file carries no status reason', async () => {
    const { file } = await client.uploadFile({ key: 'plain.md', content: 'Nothing asked of a model here.', index: true })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_completed')
    expect(done.failedStatusReason).toBeUndefined()
  })

  it('an image with index: true ends indexing_failed with a reason that says a vision-capable model is needed', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
    const { file } = await client.uploadFile({ key: 'photo.png', content: png, index: true })
    const done = await settledFile(service, file.id)
    expect(done.status).toBe('indexing_failed')
    expect(done.failedStatusReason).toBe(`an image is indexed by the caption a vision-capable language model writes of it, and ${NO_MODEL}`)
  })
})
