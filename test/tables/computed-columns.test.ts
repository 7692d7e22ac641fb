/**
 * Computed columns end to end (issue 25, decision 1422), through the official `@botpress/client` on a real port,
 * against a fake OpenAI-compatible chat server started here (the edge of the world): AI columns label rows with and
 * without `waitComputed`, dependencies recompute after updates down their chains, `staleColumns` and `stale` counts,
 * a model outage leaves cells pending then computed, compute switched off gives `disabled`, a cycle is refused, and
 * code columns derive values and fail hostile code with a reason, two servers on one database compute each cell
 * once, workflow columns fail with a reason when the bot has no subscription (test/tables/workflow-columns.test.ts
 * computes them end to end), and column schemas keep every field.
 */
import type { Client } from '@botpress/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenAiCompatibleLanguageModel } from '../../server/src/language-model/index.js'
import { chatCompletion, lastUserText, startFakeChatServer } from '../../server/src/language-model/fake-chat-server.test-support.js'
import { createTablesFeature } from '../../server/src/tables/index.js'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { createApp } from '../../server/src/http/app.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { eventually } from '../helpers/eventually.js'
import { BotshelfError } from 'botshelf/api'
import type { Backend } from '../../server/src/store/index.js'

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

beforeAll(async () => {
  fake = await startFakeChatServer()
  fake.reply((body) => chatCompletion(modelReply(lastUserText(body)), 'fake-chat'))
  service = await startTestService({
    listen: true,
    languageModel: createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-model', maxRetries: 0 }),
    features: [createFilesFeature(), createTablesFeature({ search: { embedder: null }, compute: { sweepIntervalMs: 100, waitComputedMs: 20_000, codeTimeLimitMs: 300, codeMemoryLimitBytes: 16 * 1024 * 1024 } })],
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
    // Every read agrees with itself on PostgreSQL, where the row and its cells are read in one snapshot (decision
    // 1479): a cell answered computed has its value. (On SQLite the two reads run one after the other on the one
    // connection, and a computation committing between them could still be seen by the second: not asserted there.)
    const row = await eventually(async () => {
      const { row } = await client.getTableRow({ table: 'reviewsTable', id: rows[0]!.id })
      if (process.env['BOTSHELF_TEST_BACKEND'] === 'postgres') {
        for (const column of ['sentiment', 'reply', 'stars']) if (row.computed[column]?.status === 'computed') expect(row[column], `${column}: computed, without its value`).not.toBeNull()
      }
      const settled = row.stale === undefined && ['sentiment', 'reply', 'stars'].every((column) => row.computed[column]?.status === 'computed' && row[column] !== null)
      return settled ? row : undefined
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

  it('computes each cell once when two servers share the database', async () => {
    // A second app on the same backend: its job runner competes for the same jobs and cells.
    const second = await createApp({
      backend: service.backend,
      logger: { log() {} },
      languageModel: createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-model', maxRetries: 0 }),
      features: [createTablesFeature({ search: { embedder: null }, compute: { sweepIntervalMs: 100, concurrency: 8, sandbox: null } })],
      jobs: { pollMs: 20, concurrency: 4 },
    })
    try {
      await client.createTable({ name: 'twoServersTable', schema: { review: reviewSchema.review, sentiment: reviewSchema.sentiment }, isComputeEnabled: true } as never)
      const before = fake.requests.length
      const reviews = Array.from({ length: 20 }, (_, i) => `review ${i} ${i % 2 ? 'I love it' : 'meh'}`)
      await client.createTableRows({ table: 'twoServersTable', rows: reviews.map((review) => ({ review })) })
      await eventually(async () => ((await client.getTable({ table: 'twoServersTable' })).stale === 0 ? true : undefined), 'all computed')
      const asked = fake.requests.slice(before).map((request) => lastUserText(request.body))
      expect(asked.sort()).toEqual(reviews.map((review) => `Sentiment: ${review}`).sort())
    } finally {
      await second.close()
    }
  })

  it('writes one settled value at a time per computation, so concurrent workers do not race each other for the table', async () => {
    let inFlight = 0
    let most = 0
    const own = await serviceAroundSettles(8, async (settle) => {
      most = Math.max(most, ++inFlight)
      try {
        // Long enough that eight workers would overlap if nothing queued them.
        await new Promise((resolve) => setTimeout(resolve, 5))
        return await settle()
      } finally {
        inFlight--
      }
    })
    try {
      const ownClient = own.botpressClient()
      await ownClient.createTable({ name: 'serialTable', schema: { review: reviewSchema.review, sentiment: reviewSchema.sentiment }, isComputeEnabled: true } as never)
      await ownClient.createTableRows({ table: 'serialTable', rows: Array.from({ length: 16 }, (_, i) => ({ review: `serial ${i}` })) })
      await eventually(async () => ((await ownClient.getTable({ table: 'serialTable' })).stale === 0 ? true : undefined), 'all computed')
      expect(most).toBe(1)
    } finally {
      await own.close()
    }
  })

  it('gives back the cells of a round that failed, so the retry computes them rather than waiting out their claim', async () => {
    // One settling write fails as PostgreSQL's exhausted serialization retries do; the job retries 1 s later.
    let failures = 0
    const own = await serviceAroundSettles(4, async (settle) => {
      if (failures++ === 0) throw new BotshelfError('ResourceLockedConflict', 'TRANSACTION_CONFLICT', 'The change conflicted with concurrent changes 12 times in a row and was not made; try again')
      return settle()
    })
    try {
      const ownClient = own.botpressClient()
      await ownClient.createTable({ name: 'retriedTable', schema: { review: reviewSchema.review, sentiment: reviewSchema.sentiment }, isComputeEnabled: true } as never)
      const { rows } = await ownClient.createTableRows({ table: 'retriedTable', rows: [{ review: 'I love it' }, { review: 'meh' }, { review: 'great' }] })
      // Without the give-back, the failed cell waits for its claim (120 s) and this runs out first.
      await eventually(async () => ((await ownClient.getTable({ table: 'retriedTable' })).stale === 0 ? true : undefined), 'all computed after the retry')
      expect(failures).toBeGreaterThanOrEqual(4)
      const { rows: computed } = await ownClient.findTableRows({ table: 'retriedTable' })
      expect(computed.map((row) => [row.id, row.sentiment])).toEqual(rows.map((row) => [row.id, /love|great/.test(row.review as string) ? 'positive' : 'negative']))
      expect(own.logs.some((line) => line.msg === 'job failed' && String(line.error).includes('conflicted with concurrent changes'))).toBe(true)
    } finally {
      await own.close()
    }
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

  it('derives values with a code column, in a chain after an AI column', async () => {
    await client.createTable({
      name: 'codeTable',
      isComputeEnabled: true,
      schema: {
        review: { type: 'string' },
        price: { type: 'number' },
        sentiment: reviewSchema.sentiment,
        withTax: { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return Math.round(row.price * 1.2 * 100) / 100', dependencies: ['price'] } } },
        badge: { type: 'string', 'x-zui': { computed: { action: 'code', code: 'return row.sentiment === "positive" ? `★ ${row.review}` : row.review', dependencies: ['sentiment', 'review'] } } },
      },
    } as never)
    const { rows } = await client.createTableRows({ table: 'codeTable', rows: [{ review: 'I love it', price: 10 }, { review: 'Bad', price: 2.5 }], waitComputed: true })
    expect(rows.map((row) => [row.withTax, row.badge])).toEqual([
      [12, '★ I love it'],
      [3, 'Bad'],
    ])
    expect(rows[0]!.computed.withTax).toMatchObject({ status: 'computed', updatedBy: 'code' })
    const { rows: updated } = await client.updateTableRows({ table: 'codeTable', rows: [{ id: rows[1]!.id, price: 5 }], waitComputed: true })
    expect(updated[0]!.withTax).toBe(6)
  })

  it('fails hostile code with a reason, one computation at a time, while the service keeps answering', async () => {
    const hostile = {
      loop: 'while (true) {}',
      allocate: 'const a = []; while (true) a.push(new Array(1e6).fill(1)); return 1',
      exit: 'process.exit(1)',
      fs: "return require('fs').readFileSync('/etc/passwd', 'utf8')",
      network: "return await fetch('http://127.0.0.1:1/')",
    }
    await client.createTable({
      name: 'hostileTable',
      isComputeEnabled: true,
      schema: {
        input: { type: 'string' },
        ...Object.fromEntries(Object.entries(hostile).map(([name, code]) => [name, { type: 'string', 'x-zui': { computed: { action: 'code', code, dependencies: ['input'] } } }])),
        fine: { type: 'string', 'x-zui': { computed: { action: 'code', code: 'return row.input.toUpperCase()', dependencies: ['input'] } } },
      },
    } as never)
    const writing = client.createTableRows({ table: 'hostileTable', rows: [{ input: 'ok' }], waitComputed: true })
    // The endless loop and the allocation run off the main thread: /health answers meanwhile.
    const health = await fetch(`${service.url}/health`)
    expect(health.status).toBe(200)
    const { rows } = await writing
    const row = rows[0]!
    expect(row.fine).toBe('OK')
    for (const name of Object.keys(hostile)) {
      expect(row[name], name).toBeNull()
      expect(row.computed[name], name).toMatchObject({ status: 'failed', error: expect.any(String) })
    }
    expect(row.computed.loop!.error).toMatch(/time|1 s|300 ms|limit/i)
    // Filling arrays is slow in the sandbox: on a loaded machine the 300 ms limit of this test can come first.
    expect(row.computed.allocate!.error).toMatch(/memory|time limit/i)
    expect((await fetch(`${service.url}/health`)).status).toBe(200)
  })

  it('fails a workflow column with a reason naming the subscription when the bot does not listen to table.row.compute', async () => {
    await client.createTable({
      name: 'notYetTable',
      isComputeEnabled: true,
      schema: {
        a: { type: 'number' },
        viaBot: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'wf_label', dependencies: ['a'] } } },
      },
    } as never)
    const { rows } = await client.createTableRows({ table: 'notYetTable', rows: [{ a: 2 }], waitComputed: true })
    expect(rows[0]!.computed.viaBot).toMatchObject({ status: 'failed', error: expect.stringMatching(/no webhook subscription to "table\.row\.compute"/) })
  })
})

describe('rows written by importTable and duplicateTable are computed (decision 1425)', () => {
  const doubling = { a: { type: 'number' }, doubled: { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return row.a * 2', dependencies: ['a'] } } } }

  async function tableJob(table: string, jobId: string): Promise<Record<string, any>> {
    return eventually(async () => {
      const { body } = await service.request('GET', `/v1/tables/${table}/jobs`)
      const job = body.jobs.find((candidate: { id: string }) => candidate.id === jobId)
      return job?.status === 'completed' || job?.status === 'failed' ? job : undefined
    }, `table job ${jobId} finished`)
  }

  async function importFile(table: string, key: string, content: string): Promise<void> {
    const bytes = Buffer.from(content)
    const { body } = await service.request('PUT', '/v1/files', { body: { key, size: bytes.byteLength } })
    expect((await fetch(body.file.uploadUrl, { method: 'PUT', body: bytes })).status).toBeLessThan(300)
    const started = await service.request('POST', `/v1/tables/${table}/import`, { body: { fileId: body.file.id } })
    expect(started.status, started.text).toBe(200)
    expect(await tableJob(table, started.body.job.id)).toMatchObject({ status: 'completed' })
  }

  async function settledRows(table: string) {
    return eventually(async () => {
      const { rows } = await client.findTableRows({ table, orderBy: 'id' } as never)
      return rows.every((row) => row.stale === undefined) ? rows : undefined
    }, `${table} computed`)
  }

  it('computes imported rows, exports values with their statuses, and a JSON export imports again with identical rows', async () => {
    await client.createTable({ name: 'importedTable', schema: doubling, isComputeEnabled: true } as never)
    await importFile('importedTable', 'imports/doubling.json', JSON.stringify([{ a: 1 }, { a: 2 }]))
    const rows = await settledRows('importedTable')
    expect(rows.map((row) => [row.a, row.doubled, row.computed.doubled?.status])).toEqual([
      [1, 2, 'computed'],
      [2, 4, 'computed'],
    ])

    const exported = await service.request('GET', '/v1/tables/importedTable/export', { query: { format: 'json', compress: 'false' } })
    const job = await tableJob('importedTable', exported.body.job.id)
    const { body: file } = await service.request('GET', `/v1/files/${job['outputFileId']}`)
    const content = JSON.parse(await (await fetch(file.file.url)).text()) as { rows: Array<Record<string, any>> }
    expect(content.rows[0]).toMatchObject({ a: 1, doubled: 2, computed: { doubled: { status: 'computed', updatedBy: 'code', updatedAt: rows[0]!.computed.doubled!.updatedAt } } })

    // The exported statuses are read, not refused; the import computes its rows again (decision 1425, amended with
    // 1473), a carried failure included.
    content.rows.push({ id: 9, a: 5, doubled: null, computed: { doubled: { status: 'failed', error: 'an earlier failure', updatedBy: 'code', updatedAt: '2026-01-01T00:00:00.000Z' } } })
    await client.createTable({ name: 'reimportedTable', schema: doubling, isComputeEnabled: true } as never)
    await importFile('reimportedTable', 'imports/reimport.json', JSON.stringify(content))
    const again = await settledRows('reimportedTable')
    const shape = (row: Record<string, any>) => ({ a: row.a, doubled: row.doubled, status: row.computed.doubled?.status })
    expect(again.slice(0, 2).map(shape)).toEqual(rows.map(shape))
    expect(shape(again[2]!)).toEqual({ a: 5, doubled: 10, status: 'computed' })
  })

  it('duplicateTable copies values and statuses as they are, and computes what was still waiting', async () => {
    await client.createTable({ name: 'dupSourceTable', schema: doubling, isComputeEnabled: true } as never)
    const { rows } = await client.createTableRows({ table: 'dupSourceTable', rows: [{ a: 3 }, { a: 4 }], waitComputed: true })
    const { table } = await client.duplicateTable({ sourceTableId: 'dupSourceTable', tableName: 'dupCopyTable' } as never)
    const copied = await settledRows(table.name)
    expect(copied.map((row) => [row.a, row.doubled, row.computed.doubled])).toEqual(rows.map((row) => [row.a, row.doubled, row.computed.doubled]))
    expect((await client.getTable({ table: table.name })).stale).toBe(0)
    // The copy computes on its own.
    const { rows: updated } = await client.updateTableRows({ table: table.name, rows: [{ id: copied[0]!.id, a: 10 }], waitComputed: true })
    expect(updated[0]!.doubled).toBe(20)
  })
})

describe('column schemas through @botpress/client (the wire gaps of issue 25)', () => {
  it('answers every column schema field back as given: minimum, maximum, default, title, description, x-zui.*', async () => {
    const stars = {
      type: 'number',
      minimum: 1,
      maximum: 5,
      default: 3,
      title: 'Stars',
      description: 'How many stars',
      'x-zui': { title: 'Stars', placeholder: 'between 1 and 5', hidden: false, computed: { action: 'code', code: 'return 1', dependencies: [], enabled: false } },
    }
    const { table } = await client.createTable({ name: 'schemaKeptTable', schema: { type: 'object', properties: { stars } } } as never)
    const { 'x-zui': zui, ...rest } = table.schema.properties['stars']! as Record<string, unknown> & { 'x-zui': Record<string, unknown> }
    expect(rest).toEqual(Object.fromEntries(Object.entries(stars).filter(([key]) => key !== 'x-zui')))
    expect(zui).toEqual({ ...stars['x-zui'], index: 0 })
    expect((await client.getTable({ table: 'schemaKeptTable' })).table.schema).toEqual(table.schema)
    // The bounds are enforced.
    await client.createTable({ name: 'boundsTable', schema: { n: { type: 'number', minimum: 1, maximum: 5 } } } as never)
    const refused = await client.createTableRows({ table: 'boundsTable', rows: [{ n: 9 }] }).catch((error: unknown) => error)
    expect((refused as Error).message).toMatch(/rows.0.n: expected a number ≤ 5, received number \(9\)/)
  })

  it('resets the values of a column whose type changes, as Botpress does', async () => {
    await client.createTable({ name: 'retypeTable', schema: { code: { type: 'number' }, label: { type: 'string' } } } as never)
    await client.createTableRows({ table: 'retypeTable', rows: [{ code: 7, label: 'a' }, { code: 8, label: 'b' }] })
    // The answer says which columns were reset; @botpress/client hands the extra fields through as they are.
    const answer = (await client.updateTable({ table: 'retypeTable', schema: { code: { type: 'string' } } } as never)) as unknown as Record<string, unknown>
    expect(answer['resetColumns']).toEqual(['code'])
    expect(answer['warnings']).toEqual(['column "code" changed type: its values were reset to null'])
    const unchanged = (await client.updateTable({ table: 'retypeTable', schema: { label: { type: 'string', description: 'a label' } } } as never)) as unknown as Record<string, unknown>
    expect(unchanged).not.toHaveProperty('resetColumns')
    const { rows } = await client.findTableRows({ table: 'retypeTable' })
    expect(rows.map((row) => [row.code, row.label])).toEqual([
      [null, 'a'],
      [null, 'b'],
    ])
  })
})

/** A service of its own on the fake model, computing `concurrency` cells at once, its settling writes run through `around`. */
function serviceAroundSettles(concurrency: number, around: (settle: () => Promise<boolean>) => Promise<boolean>): Promise<TestService> {
  return startTestService({
    listen: true,
    languageModel: createOpenAiCompatibleLanguageModel({ url: fake.url, model: 'fake-model', maxRetries: 0 }),
    features: [createTablesFeature({ search: { embedder: null }, compute: { sweepIntervalMs: 100, concurrency } })],
    jobs: { pollMs: 20 },
    wrapBackend: (backend) => onSettleTransactions(backend, around),
  })
}

/**
 * A backend whose transactions that settle a computed cell run through `around` (given the settle to call): the
 * fault or the measurement a test puts at the store's edge. Other transactions and calls pass through unchanged.
 */
function onSettleTransactions(backend: Backend, around: (settle: () => Promise<boolean>) => Promise<boolean>): Backend {
  const passThrough = <T extends object>(target: T, replace: (name: PropertyKey) => unknown): T =>
    new Proxy(target, {
      get(object, name) {
        const replaced = replace(name)
        if (replaced !== undefined) return replaced
        const value = Reflect.get(object, name, object)
        return typeof value === 'function' ? value.bind(object) : value
      },
    })
  return passThrough(backend, (name) =>
    name === 'transaction'
      ? (fn: (tx: Backend) => Promise<unknown>) =>
          backend.transaction((tx) =>
            fn(passThrough(tx as Backend, (txName) =>
              txName === 'computed'
                ? passThrough(tx.computed, (method) => (method === 'settleCell' ? (...args: Parameters<typeof tx.computed.settleCell>) => around(() => tx.computed.settleCell(...args)) : undefined))
                : undefined,
            )),
          )
      : undefined,
  )
}
