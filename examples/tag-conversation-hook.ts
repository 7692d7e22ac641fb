/**
 * A hook that tags conversations by topic: before an incoming text message is processed, it looks for a few
 * keywords and adds `tags.conversation.topic` to the event, so that every later hook and action sees the topic.
 *
 * Run it: npx tsx examples/tag-conversation-hook.ts
 * (In your own code, import from 'botshelf' and 'botshelf/testing' instead of '../src/...'.)
 */
import { pathToFileURL } from 'node:url'
import { createRuntime, defineHook, getTag } from '../src/index.js'

const topics: ReadonlyArray<[topic: string, keywords: RegExp]> = [
  ['billing', /\b(invoice|refund|charge|payment|bill)\b/i],
  ['shipping', /\b(delivery|shipping|package|tracking)\b/i],
  ['account', /\b(password|login|sign in|account)\b/i],
]

/** Finds the topic of a message, or undefined. */
export function topicOf(text: string): string | undefined {
  return topics.find(([, keywords]) => keywords.test(text))?.[0]
}

export const tagConversation = defineHook({
  name: 'tag-conversation',
  point: 'beforeIncoming',
  types: ['text'],
  handler: ({ event, logger }) => {
    if (getTag(event, 'conversation', 'topic') !== undefined) return // already tagged: keep the first topic
    const topic = topicOf(event.payload.text)
    if (!topic) return
    logger.info('tagged conversation', { conversationId: event.conversationId, topic })
    return {
      ...event,
      tags: { ...event.tags, conversation: { ...event.tags?.conversation, topic } },
    }
  },
})

async function main(): Promise<void> {
  const { fakeTextEvent } = await import('../src/testing/fake-event.js')
  const runtime = createRuntime({ hooks: [tagConversation] })
  const report = await runtime.dispatch(fakeTextEvent('Where is my refund?', { conversationId: 'conv_demo' }))
  console.log(
    JSON.stringify(
      { topic: getTag(report.event, 'conversation', 'topic'), hooks: report.hooks.map(({ hook, status }) => ({ hook, status })) },
      null,
      2,
    ),
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
