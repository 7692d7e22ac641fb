import { describe, expect, it } from 'vitest'
import { copyFile, deleteFile, getFile, listFiles, upsertFile } from '../../api/files/operations.js'
import { deleteTableRows, findTableRows, getTableRow, listTables } from '../../api/tables/operations.js'
import { planRequest } from './request-plan.js'

describe('planRequest with the real operations', () => {
  it('encodes a key with a slash into one path segment', () => {
    expect(planRequest(getFile, { id: 'reports/2026 q3.pdf' }).path).toBe('/v1/files/reports%2F2026%20q3.pdf')
  })

  it('puts list parameters in the query and sends no body on GET', () => {
    const plan = planRequest(listFiles, { tags: { k: 'v' }, ids: ['a'], nextToken: 't', sortField: 'key' })
    expect(plan).toMatchObject({ method: 'GET', path: '/v1/files', body: undefined })
    expect(plan.query).toEqual({ tags: { k: 'v' }, ids: ['a'], nextToken: 't', sortField: 'key' })
  })

  it('sends {} as the body of a DELETE', () => {
    expect(planRequest(deleteFile, { id: 'a.txt' }).body).toEqual({})
  })

  it('sends x-destination-bot-id as a header and overwrite in the body', () => {
    const plan = planRequest(copyFile, { idOrKey: 'a b', destinationKey: 'c/d', overwrite: true, 'x-destination-bot-id': 'bot2' } as object)
    expect(plan.path).toBe('/v1/files/a%20b/c%2Fd')
    expect(plan.headers).toEqual({ 'x-destination-bot-id': 'bot2' })
    expect(plan.body).toEqual({ overwrite: true })
  })

  it('keeps body fields and drops undefined values', () => {
    const plan = planRequest(upsertFile, { key: 'a.txt', size: 3, tags: undefined, index: false })
    expect(plan.body).toEqual({ key: 'a.txt', size: 3, index: false })
  })

  it('drops keys no schema declares, like the official client', () => {
    const plan = planRequest(upsertFile, { key: 'a.txt', size: 3, unexpected: 1 } as object)
    expect(plan.body).toEqual({ key: 'a.txt', size: 3 })
  })

  it('puts the table in the path and the rest in the body for tables operations', () => {
    const plan = planRequest(findTableRows, { table: 'ordersTable', filter: { total: { $gt: 1 } }, limit: 5 })
    expect(plan).toMatchObject({ method: 'POST', path: '/v1/tables/ordersTable/rows/find', body: { filter: { total: { $gt: 1 } }, limit: 5 } })
    expect(planRequest(deleteTableRows, { table: 't', ids: [1, 2] }).body).toEqual({ ids: [1, 2] })
    expect(planRequest(getTableRow, { table: 't', id: 7 })).toMatchObject({ path: '/v1/tables/t/row', query: { id: 7 } })
    expect(planRequest(listTables, { tags: { team: 'a' } }).query).toEqual({ tags: { team: 'a' } })
  })

  it('names the missing path parameter', () => {
    expect(() => planRequest(getTableRow, { id: 1 } as never)).toThrow('table: expected a string, received undefined')
    expect(() => planRequest(getFile, null as never)).toThrow('id: expected a string, received undefined')
  })
})
