/**
 * An action that writes a table row with the storage client: `saveLead` validates its input, makes sure the
 * `leadsTable` exists (getOrCreateTable) and inserts one row (createTableRows) for the event's conversation.
 *
 * Run it against a storage service (botshelf's own, or the Botpress API):
 *   BP_API_URL=http://127.0.0.1:3000 BP_TOKEN=<token> BP_BOT_ID=<bot id> npx tsx examples/save-lead-action.ts
 * (In your own code, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { createRuntime, defineAction } from '../src/index.js'

export const LEADS_TABLE = 'leadsTable'

const leadColumns = {
  type: 'object',
  properties: {
    email: { type: 'string' },
    name: { type: 'string' },
    conversationId: { type: 'string' },
  },
} as const

export const saveLead = defineAction({
  name: 'saveLead',
  input: z.object({ email: z.email(), name: z.string().min(1).max(100).optional() }),
  output: z.object({ rowId: z.number().int() }),
  timeoutMs: 5_000,
  handler: async ({ input, event, client, logger, signal }) => {
    await client.getOrCreateTable({ table: LEADS_TABLE, schema: leadColumns }, { signal })
    const { rows } = await client.createTableRows(
      {
        table: LEADS_TABLE,
        rows: [{ email: input.email, name: input.name ?? '', conversationId: event.conversationId ?? '' }],
      },
      { signal },
    )
    const row = rows[0]
    if (!row) throw new Error(`${LEADS_TABLE}: the service created no row`)
    logger.info('lead saved', { rowId: row.id })
    return { rowId: row.id }
  },
})

async function main(): Promise<void> {
  const { fakeEvent } = await import('../src/testing/fake-event.js')
  const botId = process.env['BP_BOT_ID']
  if (!process.env['BP_TOKEN'] || !botId) {
    console.error('Set BP_API_URL, BP_TOKEN and BP_BOT_ID to a running storage service (see docs/events.md).')
    process.exitCode = 1
    return
  }
  const runtime = createRuntime({ actions: [saveLead] })
  const output = await runtime.runAction('saveLead', { email: 'ada@example.com', name: 'Ada' }, { event: fakeEvent({ botId }) })
  console.log(JSON.stringify(output))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
