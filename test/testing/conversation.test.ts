import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineAction, defineBot } from '../../src/runtime/index.js'
import { botshelfMatchers, createFakeClock, createTestBot, startConversation, type TestBot } from '../../src/testing/index.js'

const note = defineAction({
  name: 'note',
  input: z.object({ text: z.string() }),
  output: z.object({ key: z.string() }),
  handler: async ({ input, event, client }) => {
    const key = `notes/${event.conversationId}/${event.messageId}.txt`
    await client.uploadFile({ key, content: input.text })
    return { key }
  },
})
const bot = defineBot({ actions: [note], state: { conversation: z.object({ seen: z.number().default(0) }) } })
const hooks = [
  bot.defineHook({ name: 'count', point: 'afterIncoming', handler: ({ state }) => void (state.conversation.seen += 1) }),
  bot.defineHook({
    name: 'keep-notes',
    point: 'afterIncoming',
    types: ['text'],
    handler: async ({ event, runAction }) => {
      if (event.payload.text.startsWith('note:')) await runAction('note', { text: event.payload.text.slice(5).trim() })
    },
  }),
  bot.defineHook({ name: 'audit', point: 'afterOutgoing', handler: () => undefined }),
]

let testBot: TestBot<typeof bot.actions>
beforeAll(async () => {
  testBot = await createTestBot({ bot, hooks })
})
afterAll(async () => {
  await testBot.close()
})

describe('startConversation', () => {
  it('numbers its own ids and times, so two conversations have the same transcript on any run', async () => {
    const run = async (conversationId: string) => {
      const chat = startConversation(testBot, { conversationId, clock: createFakeClock('2025-01-01T09:00:00Z'), stepMs: 60_000 })
      await chat.send('hello')
      await chat.sendEvent({ direction: 'outgoing', payload: { text: 'hi, how can I help?' } })
      await chat.send('note: call back tomorrow')
      return { reports: chat.reports, transcript: chat.transcript() }
    }
    const a = await run('conv_a')
    const b = await run('conv_b')
    expect(a.reports.map((r) => r.event.id)).toEqual(['evt_1', 'evt_2', 'evt_3'])
    const strip = (t: typeof a.transcript) => JSON.parse(JSON.stringify(t).replaceAll('conv_a', 'X').replaceAll('conv_b', 'X'))
    expect(strip(a.transcript)).toEqual(strip(b.transcript))
    expect(a.transcript.map((turn) => [turn.at, turn.direction, turn.hooks])).toEqual([
      ['2025-01-01T09:00:00.000Z', 'incoming', ['count: ok', 'keep-notes: ok']],
      ['2025-01-01T09:01:00.000Z', 'outgoing', ['audit: ok']],
      ['2025-01-01T09:02:00.000Z', 'incoming', ['count: ok', 'keep-notes: ok']],
    ])
    // The action's upload is a storage write of that turn, and only of that turn.
    expect(a.transcript.map((turn) => turn.writes)).toEqual([[], [], ['PUT /v1/files', 'PUT /v1/content/upload/file_<id>']])
    expect(a.transcript[2]!.actions).toEqual([
      { action: 'note', hook: 'keep-notes', input: { text: 'call back tomorrow' }, status: 'ok', output: { key: 'notes/conv_a/msg_3.txt' } },
    ])
    expect(a.transcript[2]!.state).toMatchObject([{ scope: 'conversation', before: { seen: 1 }, after: { seen: 2 }, saved: true }])
    const { file } = await testBot.client.getFile({ id: 'notes/conv_a/msg_3.txt' })
    expect(file.size).toBe('call back tomorrow'.length)
  })
})

describe('botshelfMatchers', () => {
  const context = { isNot: false, equals: (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y) }

  it('say what happened when they fail', async () => {
    const report = await startConversation(testBot, { conversationId: 'conv_m' }).send('hello')
    const stopped = botshelfMatchers.toHaveStopped.call(context, report, 'opt-out')
    expect(stopped.pass).toBe(false)
    expect(stopped.message()).toBe('expected the event to be stopped by "opt-out"; no hook stopped it')
    const ran = botshelfMatchers.toHaveRunAction.call(context, report, 'note')
    expect(ran).toMatchObject({ pass: false })
    expect(ran.message()).toBe('expected hooks to run action "note"; actions run: []')
    const tagged = botshelfMatchers.toHaveTagged.call(context, report, 'conversation', 'topic')
    expect(tagged.message()).toBe('expected the event to have the conversation tag topic; its conversation tags are {}')
    expect(botshelfMatchers.toHaveSavedState.call(context, report, 'conversation', { seen: 1 }).pass).toBe(true)
    expect(() => botshelfMatchers.toHaveStopped.call(context, { not: 'a report' })).toThrow('expected a DispatchReport')
  })
})
