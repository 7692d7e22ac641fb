/**
 * The storage events bot against a real in-process service: createTestBot delivers the service's events to its
 * hooks (signed, after the commit, no HTTP). Run it: npx vitest run examples/storage-events-bot.test.ts
 * (In your own tests, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestBot, type TestBot } from '../src/testing/index.js'
import { computeOrderTotals, ORDERS_TABLE, tagFailedIndexing } from './storage-events-bot.js'

let bot: TestBot | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
})

describe('the storage events bot', () => {
  it('tags a file whose indexing failed', async () => {
    bot = await createTestBot({ hooks: [tagFailedIndexing, computeOrderTotals] })
    const { file } = await bot.client.uploadFile({ key: 'scan.bin', content: 'binary', index: true, contentType: 'application/octet-stream' })
    const { report } = await bot.waitForEvent('file.indexing_failed')
    expect(report.hooks.find((hook) => hook.hook === 'tag-failed-indexing')?.status).toBe('ok')
    expect((await bot.client.getFile({ id: file.id })).file.tags).toMatchObject({ indexing: 'failed' })
    expect((await bot.client.listFiles({ tags: { indexing: 'failed' } })).files.map((f) => f.key)).toEqual(['scan.bin'])
  })

  it('computes the total of new order rows', async () => {
    bot = await createTestBot({ hooks: [tagFailedIndexing, computeOrderTotals] })
    await bot.client.createTable({
      name: ORDERS_TABLE,
      schema: { type: 'object', properties: { quantity: { type: 'number' }, unitPrice: { type: 'number' }, total: { type: 'number' } } },
    })
    const { rows } = await bot.client.createTableRows({ table: ORDERS_TABLE, rows: [{ quantity: 3, unitPrice: 2.5 }, { quantity: 1, unitPrice: 4, total: 9 }] })
    await bot.waitForEvent('table.rows.created')
    const totals = await Promise.all(rows.map(async (row) => (await bot!.client.getTableRow({ table: ORDERS_TABLE, id: row.id })).row['total']))
    expect(totals).toEqual([7.5, 9])
  })
})
