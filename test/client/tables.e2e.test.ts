import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import {
  AlreadyExistsError,
  InvalidDataFormatError,
  InvalidQueryError,
  ResourceNotFoundError,
  type Client,
} from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'

describe('client e2e: Tables API operations against the real in-process service', () => {
  let service: ClientTestService
  let client: Client

  beforeAll(async () => {
    service = await startClientService()
    client = service.client('bot')
  })
  afterAll(async () => {
    await service.close()
  })

  it('createTable, getTable, listTables (with tags) and getOrCreateTable', async () => {
    const { table } = await client.createTable({ name: 'ordersTable', schema: { total: 0, customer: '' }, tags: { team: 'sales' } })
    expect(table.name).toBe('ordersTable')
    expect(table.schema.properties['total']).toMatchObject({ type: 'number' })
    expect(table.schema.properties['customer']?.['x-zui']).toMatchObject({ index: 1 })
    await expect(client.createTable({ name: 'ordersTable', schema: { total: 0 } })).rejects.toBeInstanceOf(AlreadyExistsError)

    const got = await client.getTable({ table: 'ordersTable' })
    expect(got).toMatchObject({ table: { id: table.id }, rows: 0, stale: 0, indexing: 0 })
    const byId = await client.getTable({ table: table.id })
    expect(byId.table.name).toBe('ordersTable')

    const existing = await client.getOrCreateTable({ table: 'ordersTable', schema: { total: 0 } })
    expect(existing.created).toBe(false)
    const created = await client.getOrCreateTable({ table: 'leadsTable', schema: { email: '' } })
    expect(created.created).toBe(true)

    const listed = await client.listTables({ tags: { team: 'sales' } })
    expect(listed.tables.map((t) => t.name)).toEqual(['ordersTable'])
    expect(listed.meta).toEqual({})
  })

  it('creates, gets, finds, updates, upserts and deletes rows', async () => {
    await client.createTable({ name: 'rowsTable', schema: { name: '', score: 0 }, keyColumn: 'name' })
    const created = await client.createTableRows({
      table: 'rowsTable',
      rows: [
        { name: 'ada', score: 10 },
        { name: 'bob', score: 20 },
        { name: 'cy', score: 30 },
      ],
    })
    expect(created.rows.map((r) => r['name'])).toEqual(['ada', 'bob', 'cy'])
    const firstId = created.rows[0]!.id
    expect(created.rows[0]!.computed).toEqual({})

    expect((await client.getTableRow({ table: 'rowsTable', id: firstId })).row).toMatchObject({ id: firstId, name: 'ada', score: 10 })

    const found = await client.findTableRows({
      table: 'rowsTable',
      filter: { score: { $gte: 20 } },
      orderBy: 'score',
      orderDirection: 'desc',
      limit: 1,
    })
    expect(found).toMatchObject({ hasMore: true, offset: 0, limit: 1 })
    expect(found.rows.map((r) => r['name'])).toEqual(['cy'])
    const second = await client.findTableRows({ table: 'rowsTable', filter: { score: { $gte: 20 } }, orderBy: 'score', orderDirection: 'desc', limit: 1, offset: 1 })
    expect(second.rows.map((r) => r['name'])).toEqual(['bob'])
    expect(second.hasMore).toBe(false)

    const grouped = await client.findTableRows({ table: 'rowsTable', group: { score: ['sum', 'max'] } })
    expect(grouped.rows[0]).toMatchObject({ scoreSum: 60, scoreMax: 30 })

    const updated = await client.updateTableRows({ table: 'rowsTable', rows: [{ id: firstId, score: 11 }] })
    expect(updated.rows[0]).toMatchObject({ id: firstId, name: 'ada', score: 11 })

    const upserted = await client.upsertTableRows({
      table: 'rowsTable',
      keyColumn: 'name',
      rows: [
        { name: 'bob', score: 21 },
        { name: 'dee', score: 40 },
      ],
    })
    expect(upserted.updated.map((r) => r['name'])).toEqual(['bob'])
    expect(upserted.inserted.map((r) => r['name'])).toEqual(['dee'])

    const deleted = await client.deleteTableRows({ table: 'rowsTable', ids: [firstId] })
    expect(deleted.deletedRows).toBe(1)
    await expect(client.getTableRow({ table: 'rowsTable', id: firstId })).rejects.toBeInstanceOf(ResourceNotFoundError)
    const byFilter = await client.deleteTableRows({ table: 'rowsTable', filter: { score: { $lt: 25 } } })
    expect(byFilter.deletedRows).toBe(1)
    const all = await client.deleteTableRows({ table: 'rowsTable', deleteAllRows: true })
    expect(all.deletedRows).toBe(2)
    expect((await client.getTable({ table: 'rowsTable' })).rows).toBe(0)
  })

  it('refuses rows against the schema and bad filters with their error classes', async () => {
    await client.createTable({ name: 'typedTable', schema: { n: 0 } })
    await expect(client.createTableRows({ table: 'typedTable', rows: [{ n: 'not a number' }] })).rejects.toBeInstanceOf(InvalidDataFormatError)
    await expect(client.findTableRows({ table: 'typedTable', filter: { n: { $nope: 1 } } as never })).rejects.toBeInstanceOf(InvalidQueryError)
  })

  it('updateTable, renameTableColumn, duplicateTable, getTableJobs and deleteTable', async () => {
    await client.createTable({ name: 'shapeTable', schema: { a: '' } })
    await client.createTableRows({ table: 'shapeTable', rows: [{ a: 'x' }] })
    const updated = await client.updateTable({ table: 'shapeTable', schema: { properties: { b: { type: 'number' } } }, tags: { v: '2' } })
    expect(Object.keys(updated.table.schema.properties)).toEqual(['a', 'b'])
    expect(updated.table.tags).toEqual({ v: '2' })
    const renamed = await client.renameTableColumn({ table: 'shapeTable', name: 'a', newName: 'alpha' })
    expect(Object.keys(renamed.table.schema.properties)).toEqual(['alpha', 'b'])
    expect((await client.findTableRows({ table: 'shapeTable' })).rows[0]).toMatchObject({ alpha: 'x' })

    const duplicated = await client.duplicateTable({ sourceTableId: 'shapeTable', tableName: 'shapeCopyTable' })
    expect(duplicated.table.name).toBe('shapeCopyTable')
    expect((await client.getTable({ table: 'shapeCopyTable' })).rows).toBe(1)

    const { jobs } = await client.getTableJobs({ table: 'shapeTable' })
    expect(Array.isArray(jobs)).toBe(true)

    expect(await client.deleteTable({ table: 'shapeCopyTable' })).toEqual({})
    await expect(client.getTable({ table: 'shapeCopyTable' })).rejects.toBeInstanceOf(ResourceNotFoundError)
  })

  it('exportTable and importTable reach the service: export runs in the background into a file, importing a missing file is not found', async () => {
    await client.createTable({ name: 'transferTable', schema: { a: '' } })
    const { job } = await client.exportTable({ table: 'transferTable', format: 'csv' })
    expect(job).toMatchObject({ type: 'export', status: 'pending' })
    const done = await eventually(async () => {
      const latest = (await client.getTableJobs({ table: 'transferTable' })).jobs.find((j) => j.id === job.id)!
      return latest.status === 'completed' || latest.status === 'failed' ? latest : undefined
    }, 'the export to end')
    expect(done).toMatchObject({ type: 'export', status: 'completed', progress: 1, outputFileId: expect.stringMatching(/^file_/) })
    await expect(client.importTable({ table: 'transferTable', fileId: 'file_x' })).rejects.toMatchObject({ type: 'ResourceNotFound' })
  })
})
