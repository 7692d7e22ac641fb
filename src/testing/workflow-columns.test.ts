import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { defineAction, workflowColumnsHook } from '../index.js'
import { createTestBot } from './create-test-bot.js'

const classify = defineAction({
  name: 'classify',
  input: z.looseObject({ text: z.string() }),
  output: z.string(),
  handler: ({ input }) => (input.text.includes('refund') ? 'billing' : 'other'),
})
const explode = defineAction({
  name: 'explode',
  input: z.looseObject({}),
  output: z.string(),
  handler: () => {
    throw new Error('no model today')
  },
})

describe('createTestBot and workflow columns', () => {
  it('computes a workflow column in-process: table.row.compute runs the action and writes the value or the failure back', async () => {
    const bot = await createTestBot({ hooks: [workflowColumnsHook()], actions: [classify, explode] })
    try {
      await bot.client.createTable({
        name: 'ticketsTable',
        isComputeEnabled: true,
        schema: {
          type: 'object',
          properties: {
            text: { type: 'string' },
            label: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'classify', dependencies: ['text'] } } },
            broken: { type: 'string', 'x-zui': { computed: { action: 'workflow', workflowId: 'explode', dependencies: ['text'] } } },
          },
        },
      } as never)
      const { rows } = await bot.client.createTableRows({ table: 'ticketsTable', rows: [{ text: 'refund please' }], waitComputed: true })
      expect(rows[0]).toMatchObject({ label: 'billing', computed: { label: { status: 'computed', updatedBy: 'workflow:classify' } } })
      expect((rows[0] as { computed: Record<string, { status: string; error?: string }> }).computed['broken']).toMatchObject({ status: 'failed', error: expect.stringContaining('no model today') })
      const { event } = await bot.waitForEvent('table.row.compute')
      expect(event.payload).toMatchObject({ table: 'ticketsTable', row: { text: 'refund please' } })
    } finally {
      await bot.close()
    }
  })
})
