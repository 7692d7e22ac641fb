/**
 * The saveLead action run against a real in-process storage service with createTestBot.
 * Run it: npx vitest run examples/save-lead-action.test.ts
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestBot, fakeEvent, type TestBot } from '../src/testing/index.js'
import { LEADS_TABLE, saveLead } from './save-lead-action.js'

let bot: TestBot<readonly [typeof saveLead]> | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
})

describe('saveLead', () => {
  it('creates the leads table on first use and writes one row per lead', async () => {
    bot = await createTestBot({ actions: [saveLead] })
    const event = fakeEvent({ botId: bot.botId, conversationId: 'conv_42' })

    const first = await bot.runAction('saveLead', { email: 'ada@example.com', name: 'Ada' }, { event })
    const second = await bot.runAction('saveLead', { email: 'grace@example.com' }, { event })
    expect(second.rowId).not.toBe(first.rowId)

    const { rows } = await bot.client.findTableRows({ table: LEADS_TABLE, orderBy: 'id' })
    expect(rows.map(({ email, name, conversationId }) => ({ email, name, conversationId }))).toEqual([
      { email: 'ada@example.com', name: 'Ada', conversationId: 'conv_42' },
      { email: 'grace@example.com', name: '', conversationId: 'conv_42' },
    ])
    expect(bot.logs.filter((line) => line.msg === 'lead saved')).toHaveLength(2)
  })

  it('refuses an invalid email before touching the table', async () => {
    bot = await createTestBot({ actions: [saveLead] })
    await expect(bot.runAction('saveLead', { email: 'not-an-email' })).rejects.toThrow(/email/)
    const { tables } = await bot.client.listTables({})
    expect(tables).toEqual([])
  })
})
