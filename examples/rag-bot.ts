/**
 * A retrieval-augmented bot: before an incoming text message is processed, the `attach-knowledge` hook searches the
 * bot's knowledge-base files for the message and attaches the passages found as `event.kb`, so every later hook
 * (and the language model call that writes the answer) sees them. The `answerFromDocs` action does the same search
 * for a question and returns the best passage with its source, for flows that call it directly.
 *
 * Run its test: npx vitest run examples/rag-bot.test.ts --project sqlite
 * (In your own code, import from 'botshelf' instead of '../src/...'.)
 */
import { z } from 'zod'
import { defineAction, defineHook, searchKnowledgeBases } from '../src/index.js'

/** The knowledge base this bot answers from (the `kbId` tag of its files). */
export const HANDBOOK_KB = 'kb_handbook'

export const attachKnowledge = defineHook({
  name: 'attach-knowledge',
  point: 'beforeIncoming',
  types: ['text'],
  handler: async ({ event, client, logger, signal }) => {
    const kb = await searchKnowledgeBases(client, event, { kbIds: [HANDBOOK_KB], limit: 3, signal })
    logger.info('knowledge attached', { results: kb.results.length })
    return { ...event, kb }
  },
})

export const answerFromDocs = defineAction({
  name: 'answerFromDocs',
  input: z.object({ question: z.string().min(1).max(1000) }),
  output: z.object({ found: z.boolean(), passage: z.string(), source: z.string() }),
  timeoutMs: 10_000,
  handler: async ({ input, event, client, signal }) => {
    const { results } = await searchKnowledgeBases(client, event, { kbIds: [HANDBOOK_KB], query: input.question, limit: 1, signal })
    const best = results[0]
    return best ? { found: true, passage: best.content, source: best.fileKey } : { found: false, passage: '', source: '' }
  },
})
