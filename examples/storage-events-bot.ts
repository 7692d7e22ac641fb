/**
 * A bot that reacts to storage events (docs/storage-events.md) instead of polling:
 * - `tagFailedIndexing` (`file.indexing_failed`) tags the file `indexing: failed` with the reason's first words, so
 *   a knowledge-base file that cannot be indexed shows up in `listFiles({ tags: { indexing: 'failed' } })`;
 * - `computeOrderTotals` (`table.rows.created` of `ordersTable`) writes `total = quantity × unitPrice` on each new
 *   row that lacks it. The update emits `table.rows.updated`, not `created`, so the hook never feeds itself.
 *
 * Run it beside a botshelf service, then subscribe it (the secret is printed once):
 *   botshelf webhooks add http://127.0.0.1:8080/events --type file.indexing_failed --type table.rows.created
 *   BOTSHELF_WEBHOOK_SECRET=whsec_... BP_API_URL=http://127.0.0.1:3000 BP_TOKEN=<token> npx tsx examples/storage-events-bot.ts
 * (In your own code, import from 'botshelf' and 'botshelf/client' instead of '../src/...'.)
 */
import { createServer } from 'node:http'
import { pathToFileURL } from 'node:url'
import { createRuntime, createWebhookHandler, defineHook, toNodeHandler } from '../src/index.js'
import { Client } from '../src/client/index.js'

export const ORDERS_TABLE = 'ordersTable'

/** Tags a file whose indexing failed, so people can find and fix it. */
export const tagFailedIndexing = defineHook({
  name: 'tag-failed-indexing',
  point: 'afterIncoming',
  types: ['file.indexing_failed'],
  handler: async ({ event, client, logger }) => {
    const { file } = event.payload
    logger.warn('indexing failed', { key: file.key, reason: file.failedStatusReason })
    await client.updateFileMetadata({ id: file.id, tags: { indexing: 'failed' } })
  },
})

/** Computes the total of new order rows. */
export const computeOrderTotals = defineHook({
  name: 'compute-order-totals',
  point: 'afterIncoming',
  types: ['table.rows.created'],
  handler: async ({ event, client }) => {
    if (event.payload.table !== ORDERS_TABLE) return
    const rows = event.payload.rows
      .filter((row) => typeof row['quantity'] === 'number' && typeof row['unitPrice'] === 'number' && typeof row['total'] !== 'number')
      .map((row) => ({ id: row.id, total: (row['quantity'] as number) * (row['unitPrice'] as number) }))
    if (rows.length > 0) await client.updateTableRows({ table: ORDERS_TABLE, rows })
  },
})

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runtime = createRuntime({ hooks: [tagFailedIndexing, computeOrderTotals], clientFactory: (event) => new Client({ botId: event.botId }) })
  const handler = createWebhookHandler({ runtime, secret: process.env['BOTSHELF_WEBHOOK_SECRET'] ?? '' })
  createServer(toNodeHandler(handler)).listen(8080, '127.0.0.1', () => console.log('storage events bot on http://127.0.0.1:8080/events'))
}
