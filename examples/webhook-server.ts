/**
 * A webhook receiver on node:http: verifies Standard Webhooks signatures, refuses replays and duplicates,
 * validates the event and runs the tag-conversation hook.
 *
 * Run it:   WEBHOOK_SECRET=whsec_<base64> PORT=3001 npx tsx examples/webhook-server.ts
 * Try it:   npx tsx examples/webhook-server.ts --once
 *           (starts on a free port with a throw-away secret, sends itself one signed event, prints the answer, exits)
 * (In your own code, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRuntime, createWebhookHandler, toNodeHandler, WebhookConfigError } from '../src/index.js'
import { tagConversation } from './tag-conversation-hook.js'

const once = process.argv.includes('--once')
let secret = process.env['WEBHOOK_SECRET']
if (!secret) {
  if (!once) {
    console.error('Set WEBHOOK_SECRET (whsec_ followed by base64), for example:')
    console.error(`  WEBHOOK_SECRET=whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')} npx tsx examples/webhook-server.ts`)
    process.exit(1)
  }
  secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')}`
}

const runtime = createRuntime({ hooks: [tagConversation] })
let handler: ReturnType<typeof createWebhookHandler>
try {
  handler = createWebhookHandler({ runtime, secret, maxBodyBytes: 1024 * 1024 })
} catch (error) {
  // A wrong secret is a setup mistake: say which and how to fix it, without a stack trace.
  if (!(error instanceof WebhookConfigError)) throw error
  console.error(`WEBHOOK_SECRET is not usable: ${error.message}`)
  console.error('Expected whsec_ followed by base64, for example:')
  console.error(`  WEBHOOK_SECRET=whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')} npx tsx examples/webhook-server.ts`)
  process.exit(1)
}
const server = createServer(toNodeHandler(handler))
const port = once ? 0 : Number(process.env['PORT'] ?? 3001)

server.listen(port, '127.0.0.1', () => {
  const { port: actual } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${actual}/webhook`
  console.error(`Webhook receiver listening on ${url}`)
  if (once) void sendOne(url, secret)
})

async function sendOne(url: string, key: string): Promise<void> {
  const { fakeTextEvent } = await import('../src/testing/fake-event.js')
  const { signWebhookRequest } = await import('../src/testing/sign-webhook-request.js')
  const request = signWebhookRequest({ payload: fakeTextEvent('My invoice is wrong', { conversationId: 'conv_1' }), secret: key, url })
  const response = await fetch(request)
  console.log(response.status, JSON.stringify(await response.json()))
  server.close()
}
