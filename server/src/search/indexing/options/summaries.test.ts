import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleLanguageModel, type LanguageModel } from '../../../language-model/index.js'
import { chatCompletion, lastUserText, startFakeChatServer } from '../../../language-model/fake-chat-server.test-support.js'
import type { PreparedPassage } from '../given-passages.js'
import { documentSections, summarizeDocument } from './summaries.js'

const p = (content: string, subtype: PreparedPassage['subtype'] = 'paragraph', breadcrumb: string[] = []): PreparedPassage => ({ content, subtype, breadcrumb })

let fake: Awaited<ReturnType<typeof startFakeChatServer>>
let model: LanguageModel
beforeAll(async () => {
  fake = await startFakeChatServer()
  fake.reply((body) => chatCompletion(`summary of ${lastUserText(body).split(':')[0]}`))
  model = createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake', maxRetries: 0 })
})
afterAll(async () => {
  await fake.close()
})

const long = 'word '.repeat(250).trim()
const doc = [p('Intro text.'), p('# Guide', 'title'), p(long, 'paragraph', ['Guide']), p('# Notes', 'title'), p('Short.', 'paragraph', ['Notes'])]

describe('documentSections', () => {
  it('cuts at every title; text before the first title is a section of its own', () => {
    expect(documentSections(doc).map((section) => [section.breadcrumb, section.text.length])).toEqual([
      [[], 'Intro text.'.length],
      [['Guide'], `# Guide\n\n${long}`.length],
      [['Notes'], '# Notes\n\nShort.'.length],
    ])
  })
})

describe('summarizeDocument', () => {
  const base = { signal: new AbortController().signal, key: 'guide.md', minimumInputLength: 1000, outputTokenLimit: 1000 }

  it('summarizes the sections at least minimumInputLength long, and the whole document when asked', async () => {
    const out = await summarizeDocument(doc, { ...base, model, master: true })
    expect(out).toEqual([
      { content: 'summary of Summarize the whole of the document "guide.md"', type: 'summary', subtype: 'paragraph', breadcrumb: [] },
      { content: 'summary of Summarize the section "Guide" of the document "guide.md"', type: 'summary', subtype: 'paragraph', breadcrumb: ['Guide'] },
    ])
  })

  it('a one-section document summarized already gets no second, master summary', async () => {
    const out = await summarizeDocument([p(long)], { ...base, model, master: true })
    expect(out.map((passage) => passage.content)).toEqual(['summary of Summarize the whole of the document "guide.md"'])
  })

  it('throws the model refusal for the caller to note', async () => {
    fake.answer({ status: 400, body: { error: { message: 'no such model' } } })
    await expect(summarizeDocument([p(long)], { ...base, model, master: false })).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_REJECTED' })
  })
})
