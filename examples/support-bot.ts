/**
 * A support bot with state: it counts the turns of each conversation, remembers the user's email, tags the
 * conversation's topic, saves a lead (an action run from a hook) and stops on "stop". Everything its hooks know comes
 * from one `defineBot`: the state schemas, the actions (so `runAction` is typed) and the event types.
 *
 * Test it with a conversation: examples/support-bot.test.ts. In production, keep the state in a table:
 *   bot.createRuntime({ hooks, client: { token, apiUrl }, stateStore: createTableStateStore() })
 * (In your own code, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { z } from 'zod'
import { defineBot, defineTagKeys } from '../src/index.js'
import { saveLead } from './save-lead-action.js'

export const tags = defineTagKeys({ conversation: ['topic'] })

export const supportBot = defineBot({
  actions: [saveLead],
  state: {
    conversation: z.object({ turns: z.number().default(0), topic: z.string().optional() }),
    user: z.object({ email: z.string().optional() }),
  },
})

/** "stop" ends the turn before any other hook. */
const optOut = supportBot.defineHook({
  name: 'opt-out',
  point: 'beforeIncoming',
  types: ['text'],
  handler: ({ event }) => (event.payload.text.trim().toLowerCase() === 'stop' ? { stop: true } : undefined),
})

/** Tags the conversation with a topic the first time one is recognised, and keeps it in the conversation's state. */
const tagTopic = supportBot.defineHook({
  name: 'tag-topic',
  point: 'beforeIncoming',
  types: ['text'],
  handler: ({ event, state }) => {
    const topic = state.conversation.topic ?? (/refund|invoice|price/i.test(event.payload.text) ? 'billing' : undefined)
    if (topic === undefined) return undefined
    state.conversation.topic = topic
    return tags.set(event, 'conversation', 'topic', topic)
  },
})

/** Counts the turns; an email in a message is remembered for the user and saved as a lead. */
const remember = supportBot.defineHook({
  name: 'remember',
  point: 'afterIncoming',
  types: ['text'],
  handler: async ({ event, state, runAction }) => {
    state.conversation.turns += 1
    const email = /[\w.+-]+@[\w-]+\.[\w.]+/.exec(event.payload.text)?.[0]
    if (email && email !== state.user.email) {
      state.user.email = email
      await runAction('saveLead', { email })
    }
  },
})

export const supportHooks = [optOut, tagTopic, remember]
