/**
 * The transcript bot run against a real in-process storage service with createTestBot: files and tables.
 * Run it: npx vitest run examples/files-tables-bot.test.ts
 * (In your own tests, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createTestBot, fakeImageEvent, fakeTextEvent, type TestBot } from '../src/testing/index.js'
import { CONVERSATIONS_TABLE, conversationSummary, recordMessage, transcriptKey } from './files-tables-bot.js'

let bot: TestBot<readonly [typeof conversationSummary]> | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
})

async function start(): Promise<TestBot<readonly [typeof conversationSummary]>> {
  bot = await createTestBot({ hooks: [recordMessage], actions: [conversationSummary] })
  return bot
}

let minute = 0
/** The next message time: one minute after the previous one. */
function nextTime(): string {
  minute += 1
  return new Date(Date.UTC(2026, 10, 22, 9, minute)).toISOString()
}

async function say(testBot: TestBot, conversationId: string, text: string, userId = 'user_ada', createdOn = nextTime()): Promise<void> {
  const report = await testBot.dispatch(fakeTextEvent(text, { botId: testBot.botId, conversationId, userId, createdOn }))
  expect(report.hooks.map(({ hook, status }) => ({ hook, status }))).toEqual([{ hook: 'record-message', status: 'ok' }])
}

async function transcriptOf(testBot: TestBot, conversationId: string): Promise<string> {
  const { response } = await testBot.client.downloadFile({ id: transcriptKey(conversationId) })
  return response.text()
}

describe('files-tables bot', () => {
  it('appends every text message to its conversation transcript and keeps one row per conversation', async () => {
    const testBot = await start()
    await say(testBot, 'conv_a', 'Hello', 'user_ada', '2026-11-22T09:00:00.000Z')
    await say(testBot, 'conv_b', 'Bonjour', 'user_bob', '2026-11-22T09:01:00.000Z')
    await say(testBot, 'conv_a', 'Where is my parcel?', 'user_ada', '2026-11-22T09:02:00.000Z')
    await say(testBot, 'conv_a', 'It was due Monday', 'user_ada', '2026-11-22T09:03:00.000Z')

    const a = await transcriptOf(testBot, 'conv_a')
    expect(a).toBe(
      [
        '2026-11-22T09:00:00.000Z user_ada: Hello',
        '2026-11-22T09:02:00.000Z user_ada: Where is my parcel?',
        '2026-11-22T09:03:00.000Z user_ada: It was due Monday',
        '',
      ].join('\n'),
    )
    expect(await transcriptOf(testBot, 'conv_b')).toBe('2026-11-22T09:01:00.000Z user_bob: Bonjour\n')

    const { rows } = await testBot.client.findTableRows({ table: CONVERSATIONS_TABLE, orderBy: 'conversationId' })
    const columns = rows.map(({ conversationId, messageCount, transcriptBytes, lastMessageAt }) => ({ conversationId, messageCount, transcriptBytes, lastMessageAt }))
    expect(columns).toEqual([
      { conversationId: 'conv_a', messageCount: 3, transcriptBytes: Buffer.byteLength(a), lastMessageAt: '2026-11-22T09:03:00.000Z' },
      // '2026-11-22T09:01:00.000Z user_bob: Bonjour\n' is 43 bytes
      { conversationId: 'conv_b', messageCount: 1, transcriptBytes: 43, lastMessageAt: '2026-11-22T09:01:00.000Z' },
    ])
    const { table } = await testBot.client.getTable({ table: CONVERSATIONS_TABLE })
    expect(table.keyColumn).toBe('conversationId')
  })

  it('summarizes a conversation from the table and the file', async () => {
    const testBot = await start()
    await say(testBot, 'conv_a', 'Hi')
    await say(testBot, 'conv_a', 'Café ☕ please')

    const summary = await testBot.runAction('conversationSummary', { conversationId: 'conv_a' })
    const transcript = await transcriptOf(testBot, 'conv_a')
    expect(summary).toEqual({ conversationId: 'conv_a', messageCount: 2, transcriptBytes: Buffer.byteLength(transcript) })
    expect(summary.transcriptBytes).toBeGreaterThan(transcript.length) // bytes, not characters: the text is not ASCII

    const fromEvent = await testBot.runAction('conversationSummary', {}, { event: fakeTextEvent('', { botId: testBot.botId, conversationId: 'conv_a' }) })
    expect(fromEvent.messageCount).toBe(2)
  })

  it('reports zero for a conversation with no messages, before and after the table exists', async () => {
    const testBot = await start()
    expect(await testBot.runAction('conversationSummary', { conversationId: 'conv_none' })).toEqual({
      conversationId: 'conv_none',
      messageCount: 0,
      transcriptBytes: 0,
    })
    await say(testBot, 'conv_a', 'Hi')
    expect(await testBot.runAction('conversationSummary', { conversationId: 'conv_none' })).toMatchObject({ messageCount: 0 })
  })

  it('keeps a multi-line message on one transcript line', async () => {
    const testBot = await start()
    await say(testBot, 'conv_a', 'line one\nline two')
    await say(testBot, 'conv_a', 'next')
    const transcript = await transcriptOf(testBot, 'conv_a')
    expect(transcript.split('\n').map((line) => line.replace(/^\S+ /, ''))).toEqual(['user_ada: line one\\nline two', 'user_ada: next', ''])
    expect((await testBot.runAction('conversationSummary', { conversationId: 'conv_a' })).messageCount).toBe(2)
  })

  it('records nothing for non-text events', async () => {
    const testBot = await start()
    const report = await testBot.dispatch(fakeImageEvent({ botId: testBot.botId, conversationId: 'conv_a' }))
    expect(report.hooks[0]).toMatchObject({ status: 'skipped', skipReason: 'type' })
    expect((await testBot.client.listFiles({})).files).toEqual([])
    expect((await testBot.client.listTables({})).tables).toEqual([])
  })
})
