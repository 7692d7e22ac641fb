import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineAction, defineHook } from '../../src/runtime/index.js'
import { createTestBot, fakeTextEvent, type TestBot } from '../../src/testing/index.js'

const saveTranscript = defineHook({
  name: 'saveTranscript',
  point: 'afterIncoming',
  async handler({ event, client, logger }) {
    await client.uploadFile({ key: `transcripts/${event.id}.txt`, content: event.preview })
    logger.info('saved transcript', { key: `transcripts/${event.id}.txt` })
  },
})

const countFiles = defineAction({
  name: 'countFiles',
  input: z.object({ prefix: z.string() }),
  output: z.object({ count: z.number() }),
  async handler({ input, client }) {
    const files = await client.list.files({}).collect()
    return { count: files.filter((file) => file.key.startsWith(input.prefix)).length }
  },
})

let bot: TestBot<readonly [typeof countFiles]> | undefined
afterEach(async () => {
  await bot?.close()
  bot = undefined
})

describe('createTestBot', () => {
  it('runs hooks against a real in-process service whose data the test can read back', async () => {
    bot = await createTestBot({ hooks: [saveTranscript], actions: [countFiles] })
    const event = fakeTextEvent('hello there', { botId: bot.botId })
    const report = await bot.dispatch(event)

    expect(report.hooks.map((h) => [h.hook, h.status])).toEqual([['saveTranscript', 'ok']])
    const { file } = await bot.client.getFile({ id: `transcripts/${event.id}.txt` })
    expect(file.status).toBe('upload_completed')
    expect(file.size).toBe('hello there'.length)
    expect(await bot.runAction('countFiles', { prefix: 'transcripts/' })).toEqual({ count: 1 })
  })

  it('captures what handlers log, bound to the event and the hook', async () => {
    bot = await createTestBot({ hooks: [saveTranscript] })
    const event = fakeTextEvent('hi', { botId: bot.botId })
    await bot.dispatch(event)
    const line = bot.logs.find((record) => record.msg === 'saved transcript')
    expect(line).toMatchObject({ level: 'info', key: `transcripts/${event.id}.txt` })
    expect(JSON.stringify(line)).toContain(event.id)
    expect(JSON.stringify(line)).toContain('saveTranscript')
  })

  it('gives each test bot its own empty store, and events of another bot their own bot', async () => {
    bot = await createTestBot({ hooks: [saveTranscript] })
    const other = fakeTextEvent('elsewhere', { botId: 'other-bot' })
    await bot.dispatch(other)
    expect(await bot.client.list.files({}).collect()).toEqual([])
    const otherFiles = await bot.clientFor('other-bot').list.files({}).collect()
    expect(otherFiles.map((f) => f.key)).toEqual([`transcripts/${other.id}.txt`])

    const second = await createTestBot({})
    try {
      expect(await second.clientFor('other-bot').list.files({}).collect()).toEqual([])
    } finally {
      await second.close()
    }
  })

  it('never rate limits the test bot, even with a fake clock that does not move', async () => {
    bot = await createTestBot({ now: () => new Date('2026-11-22T00:00:00Z') })
    // The in-process service is the whole app; its rate limits are off (not part of the TestBot type).
    expect((bot.app as unknown as { rateLimits: unknown }).rateLimits).toBeNull()
    for (let i = 0; i < 600; i++) await bot.client.listFileTags({})
  })

  it('refuses invalid action input before the handler runs', async () => {
    bot = await createTestBot({ actions: [countFiles] })
    // @ts-expect-error prefix must be a string
    await expect(bot.runAction('countFiles', { prefix: 3 })).rejects.toMatchObject({ code: expect.any(String) })
  })
})

describe('createTestBot with fakes as they come', () => {
  it('dispatches a fake made without botId as the test bot: the hook writes what bot.client reads', async () => {
    const bot = await createTestBot({ hooks: [saveTranscript] })
    try {
      const event = fakeTextEvent('hi')
      expect(event.botId).not.toBe(bot.botId)
      const report = await bot.dispatch(event)
      expect(report.hooks[0]?.status).toBe('ok')
      const files = await bot.client.list.files({}).collect()
      expect(files.map((f) => f.key)).toEqual([`transcripts/${event.id}.txt`])
      // The hook saw the test bot's id, not the placeholder.
      expect(await bot.clientFor(event.botId).list.files({}).collect()).toEqual([])
    } finally {
      await bot.close()
    }
  })

  it('keeps a bot id the test chose, and adopts made-up ones in runAction too', async () => {
    const bot = await createTestBot({ hooks: [saveTranscript], botId: 'support-bot' })
    try {
      await bot.dispatch(fakeTextEvent('for the other one', { botId: 'archive-bot' }))
      expect(await bot.client.list.files({}).collect()).toEqual([])
      expect(await bot.clientFor('archive-bot').list.files({}).collect()).toHaveLength(1)
      await bot.dispatch(fakeTextEvent('seeded', {}, { seed: 42 }))
      expect(await bot.client.list.files({}).collect()).toHaveLength(1)
    } finally {
      await bot.close()
    }
  })
})
