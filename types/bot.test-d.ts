import { expectError, expectType } from 'tsd'
import { z } from 'zod'
import { createMemoryStateStore, defineAction, defineBot, defineEventTypes, type DispatchReport, type StateChange } from 'botshelf'

const saveLead = defineAction({
  name: 'saveLead',
  input: z.object({ email: z.string() }),
  output: z.object({ rowId: z.number() }),
  handler: () => ({ rowId: 1 }),
})
const bot = defineBot({
  eventTypes: defineEventTypes({ order: z.object({ orderId: z.string(), total: z.number() }) }),
  actions: [saveLead],
  state: {
    conversation: z.object({ turns: z.number().default(0) }),
    user: z.object({ email: z.string().optional() }),
  },
})

// The bot's own types narrow hooks; an unknown name does not compile.
bot.defineHook({
  name: 'orders',
  point: 'afterIncoming',
  types: ['order', 'text'],
  handler: ({ event }) => {
    if (event.type === 'order') expectType<number>(event.payload.total)
    else expectType<string>(event.payload.text)
  },
})
expectError(bot.defineHook({ name: 'typo', point: 'afterIncoming', types: ['ordr'], handler: () => undefined }))

// ctx.runAction is typed by the bot's actions.
bot.defineHook({
  name: 'lead',
  point: 'afterIncoming',
  handler: async ({ runAction }) => {
    expectType<{ rowId: number }>(await runAction('saveLead', { email: 'a@b.c' }))
    expectError(runAction('saveLeed', { email: 'a@b.c' }))
    expectError(runAction('saveLead', { email: 42 }))
  },
})

// ctx.state is typed by the bot's schemas; an undeclared scope or a wrong value does not compile.
bot.defineHook({
  name: 'state',
  point: 'afterIncoming',
  handler: ({ state }) => {
    expectType<number>(state.conversation.turns)
    expectType<string | undefined>(state.user.email)
    state.conversation = { turns: 2 }
    expectError((state.conversation.turns = 'two'))
    expectError(state.bot)
  },
})

// A before-hook of the bot returns its own narrowed event.
expectError(
  bot.defineHook({ name: 'bad', point: 'beforeIncoming', types: ['order'], handler: ({ event }) => ({ ...event, payload: { orderId: 1, total: 2 } }) }),
)

const runtime = bot.createRuntime({ hooks: [], stateStore: createMemoryStateStore() })
declare const event: Parameters<typeof runtime.dispatch>[0]
expectType<Promise<{ rowId: number }>>(runtime.runAction('saveLead', { email: 'a' }, { event }))
expectError(runtime.runAction('nope', {}, { event }))
declare const report: DispatchReport
expectType<readonly StateChange[]>(report.state)
expectType<number>(report.attempts)
