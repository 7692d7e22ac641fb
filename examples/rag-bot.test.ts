/**
 * The RAG bot run against a real in-process storage service with createTestBot: a handbook is uploaded with
 * `index: true`, indexed by the service's own pipeline, and the hook attaches the passage that answers a question.
 * Run it: npx vitest run examples/rag-bot.test.ts --project sqlite
 */
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from '../test/helpers/eventually.js'
import { createTestBot, fakeImageEvent, fakeTextEvent, type TestBot } from '../src/testing/index.js'
import { searchKnowledgeBases } from '../src/index.js'
import { answerFromDocs, attachKnowledge, HANDBOOK_KB } from './rag-bot.js'

let bot: TestBot<readonly [typeof answerFromDocs]> | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
})

const HANDBOOK = [
  '# Employee handbook',
  '## Holidays',
  'Every employee gets twenty-eight days of paid holiday per year, booked through the HR portal.',
  '## Expenses',
  'Travel expenses are reimbursed within ten working days when the receipt is uploaded.',
  '## Equipment',
  'A laptop and a monitor are issued on the first day; return them when you leave.',
].join('\n\n')

/** Uploads a file for indexing and waits until the service has indexed it. */
async function uploadIndexed(testBot: TestBot, key: string, content: string, tags: Record<string, string>): Promise<void> {
  const { file } = await testBot.client.uploadFile({ key, content, contentType: 'text/markdown', index: true, tags })
  await eventually(async () => {
    const { file: current } = await testBot.client.getFile({ id: file.id })
    if (current.status === 'indexing_failed') throw new Error(`indexing failed: ${current.failedStatusReason}`)
    return current.status === 'indexing_completed' ? true : undefined
  }, `${key} indexed`)
}

async function start(): Promise<TestBot<readonly [typeof answerFromDocs]>> {
  bot = await createTestBot({ hooks: [attachKnowledge], actions: [answerFromDocs] })
  await uploadIndexed(bot, 'kb/handbook.md', HANDBOOK, { kbId: HANDBOOK_KB, source: 'knowledge-base' })
  // The same words in a file of another knowledge base, and in a file of none: neither may be attached.
  await uploadIndexed(bot, 'kb/other.md', 'Holidays in the other company: paid holiday is twelve days.', { kbId: 'kb_other', source: 'knowledge-base' })
  await uploadIndexed(bot, 'notes/holiday.md', 'My own notes on paid holiday plans.', {})
  return bot
}

describe('RAG bot', () => {
  it('attaches the handbook passage that answers the question as event.kb', async () => {
    const testBot = await start()
    const report = await testBot.dispatch(fakeTextEvent('How many days of paid holiday do I get?', { botId: testBot.botId }))
    expect(report.hooks.map(({ hook, status }) => ({ hook, status }))).toEqual([{ hook: 'attach-knowledge', status: 'ok' }])
    const kb = report.event.kb as { included: unknown[]; results: Array<Record<string, any>> }
    expect(kb.included).toEqual([{ id: HANDBOOK_KB }])
    expect(kb.results.length).toBeGreaterThan(0)
    expect(kb.results[0]!.content).toBe('Every employee gets twenty-eight days of paid holiday per year, booked through the HR portal.')
    expect(kb.results[0]!.fileKey).toBe('kb/handbook.md')
    for (const result of kb.results) expect(result.kbId).toBe(HANDBOOK_KB)
    for (let i = 1; i < kb.results.length; i++) expect(kb.results[i - 1]!.score).toBeGreaterThanOrEqual(kb.results[i]!.score)
  })

  it('answers a question through the action with the passage and its source', async () => {
    const testBot = await start()
    const answer = await testBot.runAction('answerFromDocs', { question: 'When are travel expenses reimbursed?' })
    expect(answer).toEqual({
      found: true,
      passage: 'Travel expenses are reimbursed within ten working days when the receipt is uploaded.',
      source: 'kb/handbook.md',
    })
  })

  it('searches nothing for an event without text, and cuts a message longer than the query limit instead of failing', async () => {
    const testBot = await start()
    const image = fakeImageEvent({ imageUrl: 'https://example.com/a.png' }, { botId: testBot.botId })
    expect(await searchKnowledgeBases(testBot.client, image)).toEqual({ included: [{ source: 'knowledge-base' }], results: [] })

    const long = `How many days of paid holiday do I get? ${'é'.repeat(1500)}`
    const report = await testBot.dispatch(fakeTextEvent(long, { botId: testBot.botId }))
    expect(report.hooks[0]!.status).toBe('ok')
    expect(String(report.event.kb?.results?.[0]?.content)).toContain('twenty-eight days of paid holiday')
  })
})
