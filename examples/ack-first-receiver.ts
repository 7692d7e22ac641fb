/**
 * The acknowledge-first receiver behind express: a verified, valid event is written to a durable inbox (a table of
 * the storage service) and answered 202 at once; a worker then runs the hooks, in order per conversation, with
 * retries, and keeps what keeps failing in a dead-letter list. A receiver killed after its 202 processes the event
 * when it starts again.
 *
 * Run it:   BP_API_URL=http://127.0.0.1:3000 BP_TOKEN=<token> BP_BOT_ID=<bot> WEBHOOK_SECRET=whsec_<base64> \
 *           PORT=3001 npx tsx examples/ack-first-receiver.ts
 * Its test: npx vitest run examples/ack-first-receiver.test.ts
 * (In your own code, import from 'botshelf' and 'botshelf/client' instead of '../src/...'.)
 */
import express from 'express'
import { Client } from '../src/client/index.js'
import {
  createInboxWorker,
  createRuntime,
  createTableInbox,
  createWebhookHandler,
  defineHook,
  getText,
  toNodeHandler,
  type ClockLike,
  type FetchHandler,
  type InboxWorker,
  type LoggerLike,
} from '../src/index.js'

/** Writes every user message to `messagesTable`, one row per message, in the order of its conversation. */
export const logMessage = defineHook({
  name: 'log-message',
  point: 'afterIncoming',
  types: ['text'],
  handler: async ({ event, client, signal }) => {
    await client.getOrCreateTable({ table: 'messagesTable', schema: { conversationId: '', eventId: '', text: '' } }, { signal })
    await client.createTableRows(
      { table: 'messagesTable', rows: [{ conversationId: event.conversationId ?? '', eventId: event.id, text: getText(event) ?? '' }] },
      { signal },
    )
  },
})

/** What `createReceiver` builds: the express app, the worker to start (and to inspect dead letters with), the handler. */
export interface Receiver {
  app: express.Express
  worker: InboxWorker
  handler: FetchHandler
}

/**
 * Builds the receiver: the runtime, a table inbox through `client`, the worker and the express app with the webhook
 * route. `express.raw()` keeps the body as bytes for the signature check (a JSON parser in front would read it).
 */
export function createReceiver(options: { client: Client; secret: string; logger?: LoggerLike; retryDelaysMs?: number[]; now?: ClockLike }): Receiver {
  const logger = options.logger ? { logger: options.logger } : {}
  const clock = options.now ? { now: options.now } : {}
  const runtime = createRuntime({ hooks: [logMessage], client: options.client, ...logger })
  const worker = createInboxWorker({
    runtime,
    inbox: createTableInbox({ client: options.client, table: 'webhookInboxTable' }),
    concurrency: 16,
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    ...logger,
    ...clock,
  })
  const handler = createWebhookHandler({ runtime, secret: options.secret, acknowledgeFirst: worker, maxBodyBytes: 1024 * 1024, ...logger, ...clock })
  const app = express()
  app.post('/webhook', express.raw({ type: '*/*', limit: '1mb' }), toNodeHandler(handler))
  return { app, worker, handler }
}

// Started directly (not imported by the test): serve on PORT with the storage service from the environment.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const secret = process.env['WEBHOOK_SECRET']
  if (!secret) {
    console.error('Set WEBHOOK_SECRET (whsec_ followed by base64), BP_API_URL, BP_TOKEN and BP_BOT_ID')
    process.exit(1)
  }
  const { app, worker } = createReceiver({ client: new Client(), secret })
  await worker.start() // first, the events an earlier process accepted and did not finish
  const port = Number(process.env['PORT'] ?? 3001)
  app.listen(port, () => console.error(`Acknowledge-first receiver on http://127.0.0.1:${port}/webhook`))
}
