/**
 * The support bot driven through a conversation against a real in-process storage service: the transcript says,
 * turn by turn, what the hooks did, which actions ran, how the state changed and what was written.
 * Run it: npx vitest run examples/support-bot.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { botshelfMatchers, createTestBot, startConversation, type BotshelfMatchers, type TestBot } from '../src/testing/index.js'
import { supportBot, supportHooks } from './support-bot.js'

expect.extend(botshelfMatchers)
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends BotshelfMatchers<T> {}
}

let bot: TestBot<typeof supportBot.actions>
beforeAll(async () => {
  bot = await createTestBot({ bot: supportBot, hooks: supportHooks })
})
afterAll(async () => {
  await bot.close()
})

describe('support bot', () => {
  it('keeps the conversation and the user in state, tags the topic and saves a lead once', async () => {
    const chat = startConversation(bot)
    await chat.send('hello')
    const refund = await chat.send('I want a refund')
    expect(refund).toHaveTagged('conversation', 'topic', 'billing')
    const email = await chat.send('my email is ada@example.com')
    expect(email).toHaveRunAction('saveLead', { email: 'ada@example.com' })
    expect(email).toHaveSavedState('user', { email: 'ada@example.com' })
    const stop = await chat.send('stop')
    expect(stop).toHaveStopped('opt-out')
    expect(stop).not.toHaveRunAction('saveLead')

    expect(chat.transcript()).toMatchInlineSnapshot(`
      [
        {
          "actions": [],
          "at": "2024-01-01T00:00:00.000Z",
          "direction": "incoming",
          "hooks": [
            "opt-out: ok",
            "tag-topic: ok",
            "remember: ok",
          ],
          "preview": "hello",
          "state": [
            {
              "after": {
                "turns": 1,
              },
              "before": {
                "turns": 0,
              },
              "key": "conversation:test-bot:conv_1",
              "saved": true,
              "scope": "conversation",
            },
          ],
          "turn": 1,
          "type": "text",
          "writes": [],
        },
        {
          "actions": [],
          "at": "2024-01-01T00:00:01.000Z",
          "direction": "incoming",
          "hooks": [
            "opt-out: ok",
            "tag-topic: ok changed event",
            "remember: ok",
          ],
          "preview": "I want a refund",
          "state": [
            {
              "after": {
                "topic": "billing",
                "turns": 2,
              },
              "before": {
                "turns": 1,
              },
              "key": "conversation:test-bot:conv_1",
              "saved": true,
              "scope": "conversation",
            },
          ],
          "tags": {
            "conversation": {
              "topic": "billing",
            },
          },
          "turn": 2,
          "type": "text",
          "writes": [],
        },
        {
          "actions": [
            {
              "action": "saveLead",
              "hook": "remember",
              "input": {
                "email": "ada@example.com",
              },
              "output": {
                "rowId": 1,
              },
              "status": "ok",
            },
          ],
          "at": "2024-01-01T00:00:02.000Z",
          "direction": "incoming",
          "hooks": [
            "opt-out: ok",
            "tag-topic: ok changed event",
            "remember: ok",
          ],
          "preview": "my email is ada@example.com",
          "state": [
            {
              "after": {
                "topic": "billing",
                "turns": 3,
              },
              "before": {
                "topic": "billing",
                "turns": 2,
              },
              "key": "conversation:test-bot:conv_1",
              "saved": true,
              "scope": "conversation",
            },
            {
              "after": {
                "email": "ada@example.com",
              },
              "before": {},
              "key": "user:test-bot:user_1",
              "saved": true,
              "scope": "user",
            },
          ],
          "tags": {
            "conversation": {
              "topic": "billing",
            },
          },
          "turn": 3,
          "type": "text",
          "writes": [
            "POST /v1/tables/leadsTable",
            "POST /v1/tables/leadsTable/rows",
          ],
        },
        {
          "actions": [],
          "at": "2024-01-01T00:00:03.000Z",
          "direction": "incoming",
          "hooks": [
            "opt-out: ok stopped",
            "tag-topic: skipped (stopped)",
            "remember: skipped (stopped)",
          ],
          "preview": "stop",
          "state": [],
          "turn": 4,
          "type": "text",
          "writes": [],
        },
      ]
    `)
  })

  it('gives each conversation its own state', async () => {
    const other = startConversation(bot, { conversationId: 'conv_2' })
    const report = await other.send('hi')
    expect(report.state[0]).toMatchObject({ scope: 'conversation', before: { turns: 0 }, after: { turns: 1 } })
  })
})
