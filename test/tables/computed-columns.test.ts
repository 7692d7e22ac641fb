/**
 * Computed columns end to end (issue 25, decision 1422), through the official `@botpress/client` on a real port,
 * against a fake OpenAI-compatible chat server started here (the edge of the world): AI columns label rows with and
 * without `waitComputed`, dependencies recompute after updates down their chains, `staleColumns` and `stale` counts,
 * a model outage leaves cells pending then computed, compute switched off gives `disabled`, a cycle is refused, and
 * columns this build cannot run yet (code without a sandbox, workflow) fail with a reason.
 */
import type { Client } from '@botpress/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleLanguageModel } from '../../server/src/language-model/index.js'
import { chatCompletion, lastUserText, startFakeChatServer } from '../../server/src/language-model/fake-chat-server.test-support.js'
import { createTablesFeature } from '../../server/src/tables/index.js'
import { startTestService, type TestService } from '../helpers/service.js'

let fake: Awaited<ReturnType<typeof startFakeChatServer>>
let service: TestService
let client: Client

/** The fake model: a sentiment from the words of the prompt, a reply from the sentiment, a score as a number. */
function modelReply(prompt: string): string {
  if (prompt.startsWith('Sentiment:')) return /love|great/i.test(prompt) ? 'positive' : 'negative'
  if (prompt.startsWith('Reply to a')) return `Thanks for your ${prompt.includes('positive') ? 'kind' : 'honest'} review`
  if (prompt.startsWith('Stars:')) return ' 4 '
  if (prompt.startsWith('Tags:')) return JSON.stringify({ value: { tags: prompt.slice(6).split(' ') } })
  return 'not sure'
}

const reviewSchema = {
  review: { type: 'string' },
  sentiment: {
    type: 'string',
    enum: ['positive', 'negative'],
    'x-zui': { computed: { action: 'ai', prompt: 'Sentiment: {{review}}', dependencies: ['review'] } },
  },
  reply: {
    type: 'string',
    'x-zui': { computed: { action: 'ai', prompt: 'Reply to a {{sentiment}} review: {{review}}', dependencies: ['review', 'sentiment'] } },
  },
  stars: { type: 'number', 'x-zui': { computed: { action: 'ai', prompt: 'Stars: {{review}}', dependencies: ['review'] } } },
}

/** Polls `check` until it returns a value (the computations run in the background). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`never happened: ${what}`)
}

beforeAll(async () => {
  fake = await startFakeChatServer()
  fake.reply((body) => chatCompletion(modelReply(lastUserText(body)), 'fake-chat'))
  service = await startTestService({
    listen: true,
    languageModel: createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-model', maxRetries: 0 }),
    features: [createTablesFeature({ search: { embedder: null }, compute: { sweepIntervalMs: 100, waitComputedMs: 20_000, sandbox: null } })],
    jobs: { pollMs: 50 },
  })
  client = service.botpressClient()
})
afterAll(async () => {
  await service?.close()
  await fake?.close()
})

describe('AI columns through @botpress/client', () => {
  it('labels rows with waitComputed: values, statuses and the prompts the model saw', async () => {
    await client.createTable({ name: 'reviewsTable', schema: reviewSchema, isComputeEnabled: true } as never)
    const { rows } = await client.createTableRows({ table: 'reviewsTable', rows: [{ review: 'I love this phone' }, { review: 'Broke in a week' }], waitComputed: true })
    expect(rows.map((row) => [row.review, row.sentiment, row.reply, row.stars])).toEqual([
      ['I love this phone', 'positive', 'Thanks for your kind review', 4],
      ['Broke in a week', 'negative', 'Thanks for your honest review', 4],
    ])
    expect(rows[0]!.computed.sentiment).toMatchObject({ status: 'computed', updatedBy: 'ai:fake-chat' })
    expect(rows[0]!.computed.reply!.status).toBe('computed')
    expect(rows[0]!.stale).toBeUndefined()
    const prompts = fake.requests.map((request) => lastUserText(request.body))
    expect(prompts).toContain('Sentiment: I love this phone')
    expect(prompts).toContain('Reply to a positive review: I love this phone')
    expect(fake.requests[0]!.body.model).toBe('fake-model')
    // Values computed count like written ones: filters find them.
    const { rows: positive } = await client.findTableRows({ table: 'reviewsTable', filter: { sentiment: 'positive' } })
    expect(positive.map((row) => row.review)).toEqual(['I love this phone'])
  })

  it('without waitComputed answers pending rows at once, counts them stale, then computes them', async () => {
    fake.pause()
    const { rows } = await client.createTableRows({ table: 'reviewsTable', rows: [{ review: 'Great battery' }] })
    expect(rows[0]!.sentiment).toBeNull()
    expect(rows[0]!.computed.sentiment!.status).toBe('pending')
    expect(rows[0]!.stale).toEqual(['reply', 'sentiment', 'stars'])
    expect((await client.getTable({ table: 'reviewsTable' })).stale).toBe(1)
    fake.resume()
    const row = await eventually(async () => {
      const { row } = await client.getTableRow({ table: 'reviewsTable', id: rows[0]!.id })
      return row.stale === undefined ? row : undefined
    }, 'the row computed')
    expect(row).toMatchObject({ sentiment: 'positive', reply: 'Thanks for your kind review', stars: 4 })
    expect((await client.getTable({ table: 'reviewsTable' })).stale).toBe(0)
  })

  it('recomputes the dependents of an updated column, down the chain', async () => {
    const { rows } = await client.createTableRows({ table: 'reviewsTable', rows: [{ review: 'I love it' }], waitComputed: true })
    expect(rows[0]!.sentiment).toBe('positive')
    const { rows: updated } = await client.updateTableRows({ table: 'reviewsTable', rows: [{ id: rows[0]!.id, review: 'Awful screen' }], waitComputed: true })
    expect(updated[0]).toMatchObject({ review: 'Awful screen', sentiment: 'negative', reply: 'Thanks for your honest review' })
    // Writing a column no computation reads recomputes nothing.
    const before = fake.requests.length
    await client.updateTableRows({ table: 'reviewsTable', rows: [{ id: rows[0]!.id, sentiment: 'positive' }], waitComputed: true })
    const chained = fake.requests.slice(before).map((request) => lastUserText(request.body))
    expect(chained).toEqual(['Reply to a positive review: Awful screen'])
  })

  it('answers staleColumns when a definition changes, recomputes every row, and refuses a cycle', async () => {
    await client.createTable({ name: 'staleColumnsTable', schema: reviewSchema, isComputeEnabled: true } as never)
    await client.createTableRows({ table: 'staleColumnsTable', rows: [{ review: 'I love it' }, { review: 'Meh' }], waitComputed: true })
    fake.pause()
    const changed = { ...reviewSchema, sentiment: { ...reviewSchema.sentiment, 'x-zui': { computed: { ...reviewSchema.sentiment['x-zui'].computed, prompt: 'Sentiment: {{review}} (be strict)' } } } }
    const { staleColumns } = await client.updateTable({ table: 'staleColumnsTable', schema: changed } as never)
    expect([...(staleColumns ?? [])].sort()).toEqual(['reply', 'sentiment'])
    expect((await client.getTable({ table: 'staleColumnsTable' })).stale).toBe(2)
    fake.resume()
    await eventually(async () => ((await client.getTable({ table: 'staleColumnsTable' })).stale === 0 ? true : undefined), 'every row recomputed')
    const cyclic = { ...changed, sentiment: { ...changed.sentiment, 'x-zui': { computed: { ...changed.sentiment['x-zui'].computed, dependencies: ['review', 'reply'] } } } }
    const refused = await client.updateTable({ table: 'staleColumnsTable', schema: cyclic } as never).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 400, type: 'InvalidPayload' })
    expect((refused as Error).message).toMatch(/no cycle between computed columns, received (sentiment → reply → sentiment|reply → sentiment → reply)/)
  })

  it('keeps values pending while the model is down and computes them once it is back', async () => {
    fake.outage({ status: 503, headers: { 'retry-after': '0' }, body: { error: { message: 'overloaded' } } })
    const { rows } = await client.createTableRows({ table: 'reviewsTable', rows: [{ review: 'I love the colour' }] })
    const asked = fake.requests.length
    await eventually(async () => (fake.requests.length > asked + 1 ? true : undefined), 'the model asked during the outage')
    const { row: during } = await client.getTableRow({ table: 'reviewsTable', id: rows[0]!.id })
    expect(during.computed.sentiment!.status).toBe('pending')
    expect(during.stale).toContain('sentiment')
    fake.outage(undefined)
    const row = await eventually(async () => {
      const { row } = await client.getTableRow({ table: 'reviewsTable', id: rows[0]!.id })
      return row.stale === undefined ? row : undefined
    }, 'computed after the outage')
    expect(row).toMatchObject({ sentiment: 'positive', reply: 'Thanks for your kind review' })
  })

  it('fails a value that does not fit the column with the reason, and an object column reads JSON', async () => {
    await client.createTable({
      name: 'fitTable',
      isComputeEnabled: true,
      schema: {
        text: { type: 'string' },
        flag: { type: 'boolean', 'x-zui': { computed: { action: 'ai', prompt: 'Is it? {{text}}', dependencies: ['text'] } } },
        meta: { type: 'object', 'x-zui': { computed: { action: 'ai', prompt: 'Tags: {{text}}', dependencies: ['text'] } } },
      },
    } as never)
    const { rows } = await client.createTableRows({ table: 'fitTable', rows: [{ text: 'red fast' }], waitComputed: true })
    expect(rows[0]!.flag).toBeNull()
    expect(rows[0]!.computed.flag).toMatchObject({ status: 'failed', error: expect.stringMatching(/expected true or false, received "not sure"/) })
    expect(rows[0]!.meta).toEqual({ tags: ['red', 'fast'] })
    const asked = fake.requests.find((request) => lastUserText(request.body).startsWith('Tags:'))
    expect(asked!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'meta' } })
  })

  it('marks cells disabled when compute is off for the table or the column', async () => {
    await client.createTable({ name: 'offTable', schema: reviewSchema } as never)
    const { rows } = await client.createTableRows({ table: 'offTable', rows: [{ review: 'I love it' }], waitComputed: true })
    expect(rows[0]!.computed.sentiment!.status).toBe('disabled')
    expect(rows[0]!.sentiment).toBeNull()
    const { staleColumns } = await client.updateTable({ table: 'offTable', isComputeEnabled: true } as never)
    expect([...(staleColumns ?? [])].sort()).toEqual(['reply', 'sentiment', 'stars'])
    await eventually(async () => ((await client.getTableRow({ table: 'offTable', id: rows[0]!.id })).row.sentiment === 'positive' ? true : undefined), 'computed once switched on')
  })

  it('fails the columns this build cannot run yet with a reason: code without a sandbox, workflow', async () => {
    await client.createTable({
      name: 'notYetTable',
      isComputeEnabled: true,
      schema: {
        a: { type: 'number' },
        doubled: { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return row.a * 2', dependencies: ['a'] } } },
        viaBot: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'wf_label', dependencies: ['a'] } } },
      },
    } as never)
    const { rows } = await client.createTableRows({ table: 'notYetTable', rows: [{ a: 2 }], waitComputed: true })
    expect(rows[0]!.computed.doubled).toMatchObject({ status: 'failed', error: expect.stringMatching(/not available yet/) })
    expect(rows[0]!.computed.viaBot).toMatchObject({ status: 'failed', error: expect.stringMatching(/workflow columns are not available yet/) })
  })
})
