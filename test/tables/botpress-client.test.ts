/**
 * A scenario through the official `@botpress/client` on a real port: the tables calls a bot, zai or the
 * ADK make must work unchanged against botshelf.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService

beforeAll(async () => {
  service = await startTestService({ listen: true })
})
afterAll(async () => {
  await service.close()
})

describe('@botpress/client against botshelf tables', () => {
  it('runs the table lifecycle: getOrCreate, rows, find, group, upsert, update, rename, duplicate, delete', async () => {
    const client = service.botpressClient('bot')

    const first = await client.getOrCreateTable({
      table: 'notesTable',
      schema: { title: { type: 'string', 'x-zui': { searchable: true } }, score: { type: 'number' }, topic: { type: 'string' } },
      keyColumn: 'title',
      tags: { app: 'notes' },
    })
    expect(first.created).toBe(true)
    expect(first.table.schema.properties['title']?.['x-zui'].searchable).toBe(true)
    expect(first.table.schema.properties['score']?.type).toBe('number')
    expect((await client.getOrCreateTable({ table: 'notesTable', schema: {} })).created).toBe(false)

    const { tables } = await client.listTables({ tags: { app: 'notes' } })
    expect(tables.map((t) => t.name)).toEqual(['notesTable'])

    const created = await client.createTableRows({
      table: 'notesTable',
      rows: [
        { title: 'Quarterly invoice reminder', score: 3, topic: 'billing' },
        { title: 'Team lunch on Friday', score: 1, topic: 'social' },
        { title: 'Invoice overdue for March', score: 5, topic: 'billing' },
      ],
    })
    expect(created.rows.map((r) => r.id)).toEqual([1, 2, 3])
    expect(created.rows[0]?.computed).toEqual({})

    const found = await client.findTableRows({ table: 'notesTable', filter: { topic: 'billing', score: { $gte: 4 } } })
    expect(found.rows.map((r) => r['title'])).toEqual(['Invoice overdue for March'])
    expect([found.hasMore, found.offset, found.limit]).toEqual([false, 0, 100])

    const searched = await client.findTableRows({ table: 'notesTable', search: 'invoice' })
    // The two rows with the word come first; with the default embedder, rows near in meaning may follow (decision 0860).
    expect(searched.rows.slice(0, 2).map((r) => r.id).sort()).toEqual([1, 3])
    expect(searched.rows.every((r) => typeof r.similarity === 'number' && r.similarity > 0)).toBe(true)

    const grouped = await client.findTableRows({ table: 'notesTable', group: { topic: 'key', score: ['sum', 'avg'] } })
    expect(grouped.rows).toEqual([
      { topicKey: 'billing', scoreSum: 8, scoreAvg: 4 },
      { topicKey: 'social', scoreSum: 1, scoreAvg: 1 },
    ])

    const upserted = await client.upsertTableRows({
      table: 'notesTable',
      keyColumn: 'title',
      rows: [{ title: 'Team lunch on Friday', score: 2 }, { title: 'New hire onboarding', score: 4, topic: 'people' }],
    })
    expect(upserted.updated.map((r) => r.id)).toEqual([2])
    expect(upserted.inserted.map((r) => r['title'])).toEqual(['New hire onboarding'])

    const updated = await client.updateTableRows({ table: 'notesTable', rows: [{ id: 1, score: 10 }] })
    expect(updated.rows[0]?.['score']).toBe(10)
    expect((await client.getTableRow({ table: 'notesTable', id: 1 })).row['score']).toBe(10)

    const renamed = await client.renameTableColumn({ table: 'notesTable', name: 'topic', newName: 'category' })
    expect(Object.keys(renamed.table.schema.properties)).toEqual(['title', 'score', 'category'])

    const changed = await client.updateTable({ table: 'notesTable', schema: { properties: { done: { type: 'boolean' }, score: { type: 'null' } } }, factor: 2 })
    expect(Object.keys(changed.table.schema.properties)).toEqual(['title', 'category', 'done'])
    expect(changed.table.factor).toBe(2)

    const copy = await client.duplicateTable({ sourceTableId: first.table.id, tableName: 'notesCopyTable' })
    expect([copy.table.name, copy.rows]).toEqual(['notesCopyTable', 4])

    const deleted = await client.deleteTableRows({ table: 'notesTable', filter: { category: 'billing' } })
    expect(deleted.deletedRows).toBe(2)
    expect((await client.getTable({ table: 'notesTable' })).rows).toBe(2)

    await client.deleteTable({ table: 'notesTable' })
    await expect(client.getTable({ table: 'notesTable' })).rejects.toMatchObject({ type: 'ResourceNotFound', code: 404 })
  })

  it('surfaces InvalidQuery and InvalidDataFormat as the client’s error classes', async () => {
    const client = service.botpressClient('bot')
    await client.createTable({ name: 'errorsTable', schema: { n: 1 } })
    await expect(client.findTableRows({ table: 'errorsTable', filter: { n: { $bogus: 1 } } })).rejects.toMatchObject({
      type: 'InvalidQuery',
      message: expect.stringContaining('$bogus'),
    })
    await expect(client.createTableRows({ table: 'errorsTable', rows: [{ n: 'x' }] })).rejects.toMatchObject({
      type: 'InvalidDataFormat',
      message: expect.stringContaining('rows.0.n'),
    })
  })

  it('refuses writes to a viewer with Forbidden, and allows its reads', async () => {
    await service.botpressClient('bot').createTable({ name: 'viewTable', schema: { n: 1 } })
    const viewer = service.botpressClient('viewer')
    expect((await viewer.getTable({ table: 'viewTable' })).table.name).toBe('viewTable')
    await expect(viewer.createTableRows({ table: 'viewTable', rows: [{ n: 1 }] })).rejects.toMatchObject({ type: 'Forbidden' })
  })
})
