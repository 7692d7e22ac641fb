import { describe, expect, it } from 'vitest'
import { defineHook, isEventOfType } from '../index.js'
import { createTestBot } from './create-test-bot.js'

describe('createTestBot and storage events', () => {
  it('delivers the in-process service\'s storage events to the hooks, typed, after the commit', async () => {
    const seen: string[] = []
    const tagFailed = defineHook({
      name: 'tag-failed',
      point: 'afterIncoming',
      types: ['file.indexing_failed'],
      handler: async ({ event, client }) => {
        await client.updateFileMetadata({ id: event.payload.file.id, tags: { needsReview: 'yes' } })
      },
    })
    const record = defineHook({
      name: 'record',
      point: 'afterIncoming',
      handler: ({ event }) => {
        seen.push(event.type)
        if (isEventOfType(event, 'table.rows.created')) seen.push(`rows:${event.payload.rows.length}`)
      },
    })
    const bot = await createTestBot({ hooks: [tagFailed, record], storageEvents: 'all' })
    try {
      const { file } = await bot.client.uploadFile({ key: 'scan.bin', content: 'binary', index: true, contentType: 'application/octet-stream' })
      const failed = await bot.waitForEvent('file.indexing_failed')
      expect(failed.report.hooks.map((hook) => hook.status)).toEqual(['ok', 'ok'])
      expect((await bot.client.getFile({ id: file.id })).file.tags).toMatchObject({ needsReview: 'yes' })
      await bot.client.createTable({ name: 'notesTable', schema: { type: 'object', properties: { n: { type: 'number' } } } })
      await bot.client.createTableRows({ table: 'notesTable', rows: [{ n: 1 }, { n: 2 }] })
      await bot.waitForEvent('table.rows.created')
      expect(seen).toEqual(expect.arrayContaining(['file.created', 'file.indexing_failed', 'table.created', 'table.rows.created', 'rows:2']))
    } finally {
      await bot.close()
    }
  })

  it('subscribes to the storage types the hooks name, and to none when they name none', async () => {
    const types: string[] = []
    const indexed = defineHook({ name: 'indexed', point: 'afterIncoming', types: ['file.indexed'], handler: ({ event }) => void types.push(event.payload.file.key) })
    const bot = await createTestBot({ hooks: [indexed] })
    try {
      await bot.client.uploadFile({ key: 'guide.md', content: '# Guide\n\nHello there.', index: true })
      const { event } = await bot.waitForEvent('file.indexed')
      expect(event.type).toBe('file.indexed')
      expect(types).toEqual(['guide.md'])
      const found = await bot.client.searchFiles({ query: 'hello' })
      expect(found.passages.length).toBeGreaterThan(0)
    } finally {
      await bot.close()
    }
  })
})
