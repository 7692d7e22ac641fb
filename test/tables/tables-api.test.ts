import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tablesFeature } from '../../server/src/tables/index.js'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService

beforeAll(async () => {
  service = await startTestService({ features: [tablesFeature] })
})
afterAll(async () => {
  await service.close()
})

describe('Tables API over HTTP', () => {
  it('creates, lists, gets, fills, queries and deletes a table', async () => {
    const created = await service.request('POST', '/v1/tables', {
      body: { name: 'ordersTable', schema: { customer: 'Ada', total: 10, paid: true }, tags: { team: 'sales' }, keyColumn: 'customer' },
    })
    expect(created.status).toBe(200)
    expect(created.body.table).toMatchObject({ name: 'ordersTable', keyColumn: 'customer', factor: 1 })
    expect(created.body.table.schema.properties.total).toEqual({ type: 'number', 'x-zui': { index: 1 } })

    const list = await service.request('GET', '/v1/tables', { query: { tags: { team: 'sales' } } })
    expect(list.body.tables.map((t: { name: string }) => t.name)).toEqual(['ordersTable'])
    expect(list.body.meta).toEqual({})
    expect((await service.request('GET', '/v1/tables', { query: { tags: { team: 'ops' } } })).body.tables).toEqual([])

    const rows = await service.request('POST', '/v1/tables/ordersTable/rows', {
      body: { rows: [{ customer: 'Ada', total: 10, paid: true }, { customer: 'Bob', total: 25, paid: false }, { customer: 'Cy', total: 40, paid: true }] },
    })
    expect(rows.status).toBe(200)
    expect(rows.body.rows.map((r: { id: number }) => r.id)).toEqual([1, 2, 3])

    const byId = await service.request('GET', `/v1/tables/${created.body.table.id}`)
    expect(byId.body).toMatchObject({ rows: 3, stale: 0, indexing: 0 })

    const found = await service.request('POST', '/v1/tables/ordersTable/rows/find', {
      body: { filter: { $or: [{ paid: false }, { total: { $gte: 40 } }] }, orderBy: 'total', orderDirection: 'desc' },
    })
    expect(found.body).toMatchObject({ hasMore: false, offset: 0, limit: 100 })
    expect(found.body.rows.map((r: { customer: string }) => r.customer)).toEqual(['Cy', 'Bob'])

    const grouped = await service.request('POST', '/v1/tables/ordersTable/rows/find', { body: { group: { paid: 'key', total: ['sum', 'count'] } } })
    expect(grouped.body.rows).toEqual([
      { paidKey: false, totalSum: 25, totalCount: 1 },
      { paidKey: true, totalSum: 50, totalCount: 2 },
    ])

    const row = await service.request('GET', '/v1/tables/ordersTable/row', { query: { id: 2 } })
    expect(row.body.row).toMatchObject({ id: 2, customer: 'Bob', computed: {} })

    const upsert = await service.request('POST', '/v1/tables/ordersTable/rows/upsert', {
      body: { keyColumn: 'customer', rows: [{ customer: 'Bob', paid: true }, { customer: 'Dee', total: 5 }] },
    })
    expect(upsert.body.updated.map((r: { id: number }) => r.id)).toEqual([2])
    expect(upsert.body.inserted.map((r: { customer: string }) => r.customer)).toEqual(['Dee'])

    const deleted = await service.request('POST', '/v1/tables/ordersTable/rows/delete', { body: { filter: { total: { $lt: 20 } } } })
    expect(deleted.body).toEqual({ deletedRows: 2 })

    expect((await service.request('DELETE', '/v1/tables/ordersTable')).body).toEqual({})
    const gone = await service.request('GET', '/v1/tables/ordersTable')
    expect(gone.status).toBe(404)
    expect(gone.body.type).toBe('ResourceNotFound')
  })

  it('answers a bad filter with 400 InvalidQuery naming the column or operator', async () => {
    await service.request('POST', '/v1/tables/badTable', { body: { schema: { n: 1 } } })
    const unknownColumn = await service.request('POST', '/v1/tables/badTable/rows/find', { body: { filter: { m: 1 } } })
    expect([unknownColumn.status, unknownColumn.body.type, unknownColumn.body.message]).toEqual([400, 'InvalidQuery', 'filter.m: unknown column "m"'])
    const unknownOp = await service.request('POST', '/v1/tables/badTable/rows/find', { body: { filter: { n: { $where: 'x' } } } })
    expect(unknownOp.body.message).toBe('filter.n.$where: unknown operator "$where"')
  })

  it('refuses rows that do not fit with 400 InvalidDataFormat and writes nothing', async () => {
    await service.request('POST', '/v1/tables/strictTable', { body: { schema: { n: 1 } } })
    const res = await service.request('POST', '/v1/tables/strictTable/rows', { body: { rows: [{ n: 1 }, { n: 'two' }] } })
    expect(res.status).toBe(400)
    expect(res.body.type).toBe('InvalidDataFormat')
    expect(res.body.message).toContain('rows.1.n: expected number, received "two"')
    expect((await service.request('GET', '/v1/tables/strictTable')).body.rows).toBe(0)
  })

  it('validates request bodies: table name rule, 1..1000 rows', async () => {
    const badName = await service.request('POST', '/v1/tables', { body: { name: 'orders', schema: {} } })
    expect([badName.status, badName.body.type]).toEqual([400, 'InvalidPayload'])
    expect(badName.body.message).toContain('name')
    await service.request('POST', '/v1/tables/limitTable', { body: { schema: { n: 1 } } })
    const none = await service.request('POST', '/v1/tables/limitTable/rows', { body: { rows: [] } })
    expect(none.status).toBe(400)
    const tooMany = await service.request('POST', '/v1/tables/limitTable/rows', { body: { rows: Array.from({ length: 1001 }, () => ({ n: 1 })) } })
    expect(tooMany.status).toBe(400)
  })

  it('applies @botpress/api bounds and botshelf tag bounds, naming field, expected and received (decision 1426)', async () => {
    const refusal = async (method: string, path: string, body: unknown) => {
      const res = await service.request(method, path, { body })
      expect(res.status, res.text).toBe(400)
      return res.body.message as string
    }
    expect(await refusal('POST', '/v1/tables', { name: '', schema: { a: 'x' } })).toContain('name: expected a name ending in "Table"')
    expect(await refusal('POST', '/v1/tables', { name: 'boundsTable', schema: { a: 'x' }, factor: 31 })).toMatch(/factor: expected .*30.*received/)
    expect(await refusal('POST', '/v1/tables', { name: 'boundsTable', schema: { a: 'x' }, tags: { team: 'x'.repeat(256) } })).toContain('tags.team: expected at most 255 characters, received 256 characters')
    expect(await refusal('POST', '/v1/tables', { name: 'boundsTable', schema: { a: 'x' }, tags: { ['k'.repeat(51)]: 'v' } })).toContain('expected a key with at most 50 characters')
    expect(await refusal('POST', '/v1/tables', { name: 'boundsTable', schema: { a: 'x' }, tags: { team: 3 } })).toContain('tags.team: expected string, received number (3)')
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))
    expect(await refusal('POST', '/v1/tables', { name: 'boundsTable', schema: { a: 'x' }, tags: many })).toContain('tags: expected at most 50 tags, received 51')
    expect((await service.request('POST', '/v1/tables', { body: { name: 'boundsTable', schema: { a: 'x' }, tags: { team: 'x'.repeat(255) } } })).status).toBe(200)
    expect(await refusal('PUT', '/v1/tables/boundsTable', { tags: { team: 'x'.repeat(256) } })).toContain('tags.team: expected at most 255 characters')
    expect(await refusal('PUT', '/v1/tables/boundsTable/column', { name: 'a', newName: 'n'.repeat(31) })).toContain('newName: expected at most 30 characters, received 31 characters')
    expect(await refusal('POST', '/v1/tables/boundsTable/duplicate', { tableName: 'nope' })).toContain('tableName: expected a name ending in "Table"')
  })

  it('getOrCreateTable creates once, then returns the existing table', async () => {
    const first = await service.request('POST', '/v1/tables/goTable', { body: { schema: { a: 'x' } } })
    const second = await service.request('POST', '/v1/tables/goTable', { body: { schema: { b: 1 } } })
    expect([first.body.created, second.body.created]).toEqual([true, false])
    expect(Object.keys(second.body.table.schema.properties)).toEqual(['a'])
  })

  it('keeps each bot’s tables apart', async () => {
    await service.request('POST', '/v1/tables/privateTable', { body: { schema: { a: 'x' } } })
    const other = await service.request('GET', '/v1/tables/privateTable', { token: 'otherBot' })
    expect(other.status).toBe(404)
  })
})

describe('updateTable over HTTP', () => {
  it('refuses structural changes to a frozen table with 409, a smaller factor with 400, and a bad nextToken with 400', async () => {
    await service.request('POST', '/v1/tables', { body: { name: 'frozenTable', schema: { a: 'x' }, frozen: true, factor: 2 } })
    const schema = await service.request('PUT', '/v1/tables/frozenTable', { body: { schema: { b: 1 } } })
    expect([schema.status, schema.body.type]).toEqual([409, 'ResourceLockedConflict'])
    const tags = await service.request('PUT', '/v1/tables/frozenTable', { body: { tags: { team: 'x' } } })
    expect(tags.body.table.tags).toEqual({ team: 'x' })
    const factor = await service.request('PUT', '/v1/tables/frozenTable', { body: { factor: 1 } })
    expect([factor.status, factor.body.type]).toEqual([400, 'InvalidPayload'])
    expect(factor.body.message).toContain('factor: may only increase (current 2), received 1')
    // listTables cursors are sealed and bound to their query, like every list's (one cursor module).
    const token = await service.request('GET', '/v1/tables', { query: { nextToken: 'garbage' } })
    expect([token.status, token.body.type]).toEqual([400, 'InvalidQuery'])
    expect(token.body.message).toContain('nextToken: expected a token returned by a previous page of this list')
    await service.request('POST', '/v1/tables', { body: { name: 'pagedOneTable', schema: { a: 'x' }, tags: { team: 'paged' } } })
    await service.request('POST', '/v1/tables', { body: { name: 'pagedTwoTable', schema: { a: 'x' }, tags: { team: 'paged' } } })
    const first = await service.request('GET', '/v1/tables', { query: { pageSize: 1, tags: { team: 'paged' } } })
    expect(first.body.tables.map((t: { name: string }) => t.name)).toEqual(['pagedOneTable'])
    const next = await service.request('GET', '/v1/tables', { query: { pageSize: 1, tags: { team: 'paged' }, nextToken: first.body.meta.nextToken } })
    expect(next.body.tables.map((t: { name: string }) => t.name)).toEqual(['pagedTwoTable'])
    const otherQuery = await service.request('GET', '/v1/tables', { query: { pageSize: 1, nextToken: first.body.meta.nextToken } })
    expect([otherQuery.status, otherQuery.body.type]).toEqual([400, 'InvalidQuery'])
    expect(otherQuery.body.message).toContain('this token belongs to a list with other filters or sorting')
  })

  it('pages listTables with meta.nextToken', async () => {
    const first = await service.request('GET', '/v1/tables', { query: { pageSize: 1 } })
    expect(first.body.tables).toHaveLength(1)
    expect(typeof first.body.meta.nextToken).toBe('string')
    const second = await service.request('GET', '/v1/tables', { query: { pageSize: 1, nextToken: first.body.meta.nextToken } })
    expect(second.body.tables[0].id).not.toBe(first.body.tables[0].id)
  })
})

describe('tables payload limit', () => {
  it('accepts bodies over the files API’s 1 MB (1000 rows of 3 KB) and refuses bodies over 40 MB with 413', async () => {
    await service.request('POST', '/v1/tables/bulkTable', { body: { schema: { text: 'x' } } })
    const rows = Array.from({ length: 1000 }, (_, i) => ({ text: `${i}`.padEnd(3000, 'x') }))
    const ok = await service.request('POST', '/v1/tables/bulkTable/rows', { body: { rows } })
    expect(ok.status, ok.text.slice(0, 200)).toBe(200)
    expect(ok.body.rows).toHaveLength(1000)
    const huge = JSON.stringify({ rows: [{ text: 'x'.repeat(41 * 1024 * 1024) }] })
    const tooBig = await service.request('POST', '/v1/tables/bulkTable/rows', { body: huge })
    expect([tooBig.status, tooBig.body.type]).toEqual([413, 'PayloadTooLarge'])
    expect((await service.request('GET', '/v1/tables/bulkTable')).body.rows).toBe(1000)
  })

  it('runs user regexes in linear time: a catastrophic-backtracking $regex or column pattern cannot stall the server', async () => {
    const created = await service.request('POST', '/v1/tables', {
      body: { name: 'regexProbeTable', schema: { text: '' }, factor: 2 },
    })
    expect(created.status).toBe(200)
    await service.request('POST', '/v1/tables/regexProbeTable/rows', { body: { rows: [{ text: `${'a'.repeat(6000)}b` }, { text: 'aaa' }] } })
    const found = await service.request('POST', '/v1/tables/regexProbeTable/rows/find', { body: { filter: { text: { $regex: '^(a+)+$' } } } })
    expect(found.status).toBe(200)
    expect(found.body.rows.map((r: { text: string }) => r.text)).toEqual(['aaa'])

    const lookahead = await service.request('POST', '/v1/tables/regexProbeTable/rows/find', { body: { filter: { text: { $regex: 'a(?=b)' } } } })
    expect(lookahead.status).toBe(400)
    expect(lookahead.body).toMatchObject({ type: 'InvalidQuery', message: expect.stringContaining('RE2 syntax') })

    const withPattern = await service.request('POST', '/v1/tables', {
      body: { name: 'patternProbeTable', schema: { type: 'object', properties: { code: { type: 'string', pattern: '^(a|aa)*$' } } }, factor: 2 },
    })
    expect(withPattern.status).toBe(200)
    const refused = await service.request('POST', '/v1/tables/patternProbeTable/rows', { body: { rows: [{ code: `${'a'.repeat(6000)}b` }] } })
    expect(refused.status).toBe(400)
    expect(refused.body.type).toBe('InvalidDataFormat')
  })
})
