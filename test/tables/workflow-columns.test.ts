/**
 * Workflow columns end to end (issue 25, decision 1424), through real sockets on the run's engine: a real server
 * with a webhook subscription to `table.row.compute`, and a small receiver built with botshelf's runtime
 * (`createWebhookHandler` + `workflowColumnsHook`) whose actions compute the cells and write them back through the
 * storage client. Covers a value computed (with and without `waitComputed`), a chain (a code column reading the
 * workflow's value), a recompute after an update, an action that throws and a value the column refuses (both
 * `failed` with the reason), and the `stale` count coming back to 0.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '@botpress/client'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookHandler, defineAction, defineBot, toNodeHandler, workflowColumnsHook } from 'botshelf'
import { createMemoryLogger } from 'botshelf/testing'
import { createTablesFeature } from '../../server/src/tables/index.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { eventually } from '../helpers/eventually.js'

let service: TestService
let client: Client
let receiver: Server
/** What the receiver's actions were asked: `workflowId row.id`. */
const asked: string[] = []

const classify = defineAction({
  name: 'classify',
  input: z.looseObject({ id: z.number(), text: z.string() }),
  output: z.string(),
  handler: ({ input }) => {
    asked.push(`classify ${input.id}`)
    return input.text.includes('refund') ? 'billing' : 'other'
  },
})
const explode = defineAction({
  name: 'explode',
  input: z.looseObject({ id: z.number() }),
  output: z.string(),
  handler: () => {
    throw new Error('the CRM is down')
  },
})
const wrongType = defineAction({ name: 'wrongType', input: z.looseObject({ id: z.number() }), output: z.unknown(), handler: () => ({ not: 'a string' }) })

const schema = {
  text: { type: 'string' },
  label: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'classify', dependencies: ['text'] } } },
  shout: { type: 'string', 'x-zui': { computed: { action: 'code', code: 'return row.label.toUpperCase()', dependencies: ['label'] } } },
}

beforeAll(async () => {
  service = await startTestService({
    listen: true,
    features: [createTablesFeature({ search: { embedder: null }, compute: { sweepIntervalMs: 100, waitComputedMs: 20_000 } })],
    jobs: { pollMs: 50 },
    webhooks: { retries: [20, 20], pollMs: 50, timeoutMs: 5_000 },
  })
  client = service.botpressClient()
  // The receiver listens first (its URL goes into the subscription), then gets the subscription's secret.
  let handle: ReturnType<typeof toNodeHandler> | undefined
  receiver = createServer((req, res) => (handle ? handle(req, res) : res.writeHead(503).end()))
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`
  const subscribed = await service.request('POST', '/v1/webhooks', { body: { url, types: ['table.row.compute'] } })
  expect(subscribed.status).toBe(200)
  const bot = defineBot({ actions: [classify, explode, wrongType] })
  const runtime = bot.createRuntime({ hooks: [workflowColumnsHook()], client: { token: service.tokens.bot, apiUrl: service.url }, logger: createMemoryLogger() })
  handle = toNodeHandler(createWebhookHandler({ runtime, secret: subscribed.body.webhook.secret, logger: createMemoryLogger() }))
})

afterAll(async () => {
  await service?.close()
  if (receiver) {
    receiver.closeAllConnections()
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  }
})

describe(`workflow columns through a bot's runtime (${process.env['BOTSHELF_TEST_BACKEND'] ?? 'sqlite'})`, () => {
  it('computes a workflow column with waitComputed, and the code column that reads it', async () => {
    await client.createTable({ name: 'ticketsTable', schema, isComputeEnabled: true } as never)
    const { rows } = await client.createTableRows({ table: 'ticketsTable', rows: [{ text: 'I want a refund' }, { text: 'hello' }], waitComputed: true })
    expect(rows.map((row) => [row.text, row.label, row.shout])).toEqual([
      ['I want a refund', 'billing', 'BILLING'],
      ['hello', 'other', 'OTHER'],
    ])
    expect(rows[0]!.computed.label).toMatchObject({ status: 'computed', updatedBy: 'workflow:classify' })
    expect(rows[0]!.computed.shout).toMatchObject({ status: 'computed' })
    expect(rows[0]!.stale ?? []).toEqual([])
    expect(asked).toEqual(expect.arrayContaining([`classify ${rows[0]!.id}`, `classify ${rows[1]!.id}`]))
  })

  it('keeps the cell pending until the bot answers, and recomputes after an update', async () => {
    const { rows } = await client.createTableRows({ table: 'ticketsTable', rows: [{ text: 'where is my parcel' }] })
    const id = rows[0]!.id
    expect(rows[0]!.computed.label!.status).toBe('pending')
    expect(rows[0]!.stale).toEqual(expect.arrayContaining(['label', 'shout']))
    await eventually(async () => ((await client.getTableRow({ table: 'ticketsTable', id })).row.computed.shout?.status === 'computed' ? true : undefined), 'the row computed')
    const { rows: updated } = await client.updateTableRows({ table: 'ticketsTable', rows: [{ id, text: 'refund my parcel' }], waitComputed: true })
    expect(updated[0]).toMatchObject({ label: 'billing', shout: 'BILLING' })
    expect(asked.filter((entry) => entry === `classify ${id}`)).toHaveLength(2)
    const { stale } = await client.getTable({ table: 'ticketsTable' })
    expect(stale).toBe(0)
  })

  it('fails the cell with the reason when the action throws or returns a value the column refuses', async () => {
    await client.createTable({
      name: 'failingTable',
      isComputeEnabled: true,
      schema: {
        text: { type: 'string' },
        crm: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'explode', dependencies: ['text'] } } },
        odd: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'wrongType', dependencies: ['text'] } } },
        missing: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'noSuchAction', dependencies: ['text'] } } },
      },
    } as never)
    const { rows } = await client.createTableRows({ table: 'failingTable', rows: [{ text: 'x' }], waitComputed: true })
    const { computed } = rows[0]!
    expect(computed.crm).toMatchObject({ status: 'failed', updatedBy: 'workflow:explode', error: expect.stringContaining('the CRM is down') })
    expect(computed.odd).toMatchObject({ status: 'failed', error: expect.stringMatching(/odd/) })
    expect(computed.missing).toMatchObject({ status: 'failed', error: expect.stringMatching(/noSuchAction/) })
    expect(rows[0]!.crm ?? null).toBeNull()
  })

  it('refuses a malformed failure report with a 400 naming the field', async () => {
    const { rows } = await client.createTableRows({ table: 'failingTable', rows: [{ text: 'y' }] })
    const res = await service.request('PUT', '/v1/tables/failingTable/rows', { body: { rows: [{ id: rows[0]!.id, computed: { crm: { status: 'done' } } }] } })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('rows[0].computed.crm')
  })
})
