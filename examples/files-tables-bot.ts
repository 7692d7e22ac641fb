/**
 * A bot that keeps a transcript file and a table row per conversation, with both halves of the storage client:
 * - the `recordMessage` hook (afterIncoming, text only) appends each message as one line to the file
 *   `transcripts/<conversationId>.txt` (downloadFile for the previous content, then uploadFile), and upserts the
 *   conversation's row of `conversationsTable` (keyed by `conversationId`) with the message count and the
 *   transcript size;
 * - the `conversationSummary` action returns the message count (from the table) and the transcript length in bytes
 *   (from the file).
 * The transcript is the source of truth: one line per message (newlines inside a message are written as `\n`),
 * so the count is its number of lines. Messages of one conversation must be dispatched one after the other: two
 * at once would both read the same previous transcript and one line would be lost.
 *
 * Run it against a storage service (botshelf's own, or the Botpress API):
 *   BP_API_URL=http://127.0.0.1:3000 BP_TOKEN=<token> BP_BOT_ID=<bot id> npx tsx examples/files-tables-bot.ts
 * (In your own code, import from 'botshelf' and 'botshelf/client' instead of '../src/...'.)
 */
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { createRuntime, defineAction, defineHook, type BotEvent } from '../src/index.js'
import { ResourceNotFoundError, type Client } from '../src/client/index.js'

export const CONVERSATIONS_TABLE = 'conversationsTable'

const conversationColumns = {
  type: 'object',
  properties: {
    conversationId: { type: 'string' },
    messageCount: { type: 'number' },
    transcriptBytes: { type: 'number' },
    lastMessageAt: { type: 'string' },
  },
} as const

/** The key of a conversation's transcript file. */
export function transcriptKey(conversationId: string): string {
  return `transcripts/${conversationId}.txt`
}

/** One transcript line: `<createdOn ISO> <userId>: <text>`, on one line whatever the text holds. */
export function transcriptLine(event: BotEvent, text: string): string {
  const oneLine = text.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n')
  return `${event.createdOn.toISOString()} ${event.userId ?? 'unknown-user'}: ${oneLine}\n`
}

async function readTranscript(client: Client, conversationId: string, signal: AbortSignal): Promise<string> {
  try {
    const { response } = await client.downloadFile({ id: transcriptKey(conversationId) }, { signal })
    return await response.text()
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return '' // first message of the conversation
    throw error
  }
}

function countLines(transcript: string): number {
  return transcript.split('\n').length - 1
}

export const recordMessage = defineHook({
  name: 'record-message',
  point: 'afterIncoming',
  types: ['text'],
  handler: async ({ event, client, logger, signal }) => {
    const conversationId = event.conversationId
    if (!conversationId) {
      logger.warn('message without a conversation: not recorded', { messageId: event.messageId })
      return
    }
    const transcript = (await readTranscript(client, conversationId, signal)) + transcriptLine(event, event.payload.text)
    await client.uploadFile(
      { key: transcriptKey(conversationId), content: transcript, contentType: 'text/plain', tags: { conversationId } },
      { signal },
    )

    await client.getOrCreateTable({ table: CONVERSATIONS_TABLE, schema: conversationColumns, keyColumn: 'conversationId' }, { signal })
    const messageCount = countLines(transcript)
    const transcriptBytes = new TextEncoder().encode(transcript).byteLength
    await client.upsertTableRows(
      {
        table: CONVERSATIONS_TABLE,
        keyColumn: 'conversationId',
        rows: [{ conversationId, messageCount, transcriptBytes, lastMessageAt: event.createdOn.toISOString() }],
      },
      { signal },
    )
    logger.info('message recorded', { conversationId, messageCount })
  },
})

export const conversationSummary = defineAction({
  name: 'conversationSummary',
  input: z.object({ conversationId: z.string().min(1).optional() }),
  output: z.object({ conversationId: z.string(), messageCount: z.number().int(), transcriptBytes: z.number().int() }),
  timeoutMs: 5_000,
  handler: async ({ input, event, client, signal }) => {
    const conversationId = input.conversationId ?? event.conversationId
    if (!conversationId) throw new Error('conversationSummary: give a conversationId, or run it for an event that has one')
    const none = { conversationId, messageCount: 0, transcriptBytes: 0 }
    let row
    try {
      const { rows } = await client.findTableRows({ table: CONVERSATIONS_TABLE, filter: { conversationId }, limit: 1 }, { signal })
      row = rows[0]
    } catch (error) {
      if (error instanceof ResourceNotFoundError) return none // no message recorded yet: the table does not exist
      throw error
    }
    if (!row) return none
    // The size from the file itself, not the copy in the row.
    const { file } = await client.getFile({ id: transcriptKey(conversationId) }, { signal })
    return { conversationId, messageCount: Number(row['messageCount']), transcriptBytes: file.size ?? 0 }
  },
})

async function main(): Promise<void> {
  const { fakeTextEvent } = await import('../src/testing/fake-event.js')
  const botId = process.env['BP_BOT_ID']
  if (!process.env['BP_TOKEN'] || !botId) {
    console.error('Set BP_API_URL, BP_TOKEN and BP_BOT_ID to a running storage service (see docs/events.md).')
    process.exitCode = 1
    return
  }
  const runtime = createRuntime({ hooks: [recordMessage], actions: [conversationSummary] })
  for (const text of ['Hello', 'Where is my parcel?']) {
    await runtime.dispatch(fakeTextEvent(text, { botId, conversationId: 'conv_demo' }))
  }
  const summary = await runtime.runAction('conversationSummary', { conversationId: 'conv_demo' }, { event: fakeTextEvent('', { botId }) })
  console.log(JSON.stringify(summary))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
