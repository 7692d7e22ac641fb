/**
 * The permission matrix of the Tables API through the real app (decision 0406): a fixed table of callers ×
 * operations → the status each call must answer. Written out by hand, never derived from the map under test
 * (`tablesOperationAccess`), so a wrong entry in that map fails here (issue 28: `exportTable: 'read'` passed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestCaller, type TestService } from '../helpers/service.js'

type Caller = Exclude<TestCaller, 'otherBot'>
type Operation = keyof typeof calls

/** The order of the columns of {@link expected}. */
const callers: readonly Caller[] = ['bot', 'alpha', 'beta', 'viewer', 'developer', 'manager', 'administrator', 'billing_manager']

interface Call {
  method: string
  path: (table: string) => string
  body?: unknown
  query?: Record<string, unknown>
}

/** One request per operation, valid for a table `<name>` holding one row with id 1. */
const calls = {
  listTables: { method: 'GET', path: () => '/v1/tables' },
  getTable: { method: 'GET', path: (t) => `/v1/tables/${t}` },
  getTableRow: { method: 'GET', path: (t) => `/v1/tables/${t}/row`, query: { id: 1 } },
  findTableRows: { method: 'POST', path: (t) => `/v1/tables/${t}/rows/find`, body: { filter: { n: 1 } } },
  getTableJobs: { method: 'GET', path: (t) => `/v1/tables/${t}/jobs` },
  createTable: { method: 'POST', path: () => '/v1/tables', body: { name: 'freshTable', schema: { n: 1 } } },
  getOrCreateTable: { method: 'POST', path: (t) => `/v1/tables/${t}`, body: { schema: { n: 1 } } },
  updateTable: { method: 'PUT', path: (t) => `/v1/tables/${t}`, body: { tags: { k: 'v' } } },
  deleteTable: { method: 'DELETE', path: (t) => `/v1/tables/${t}` },
  duplicateTable: { method: 'POST', path: (t) => `/v1/tables/${t}/duplicate`, body: {} },
  renameTableColumn: { method: 'PUT', path: (t) => `/v1/tables/${t}/column`, body: { name: 'n', newName: 'm' } },
  createTableRows: { method: 'POST', path: (t) => `/v1/tables/${t}/rows`, body: { rows: [{ n: 2 }] } },
  updateTableRows: { method: 'PUT', path: (t) => `/v1/tables/${t}/rows`, body: { rows: [{ id: 1, n: 3 }] } },
  upsertTableRows: { method: 'POST', path: (t) => `/v1/tables/${t}/rows/upsert`, body: { rows: [{ id: 1, n: 4 }] } },
  deleteTableRows: { method: 'POST', path: (t) => `/v1/tables/${t}/rows/delete`, body: { ids: [1] } },
  importTable: { method: 'POST', path: (t) => `/v1/tables/${t}/import`, body: { fileId: 'file_missing' } },
  exportTable: { method: 'GET', path: (t) => `/v1/tables/${t}/export`, query: { format: 'json' } },
} satisfies Record<string, Call>

/**
 * What each caller gets, in the order of {@link callers}. Reads are open to every role but billing_manager; writes
 * are closed to viewers too. An allowed import names a missing file: 404, not 403.
 */
// prettier-ignore
const expected: Record<Operation, readonly number[]> = {
  //                   bot  alpha beta viewer dev  mgr  admin billing
  listTables:         [200, 200, 200, 200,   200, 200, 200,  403],
  getTable:           [200, 200, 200, 200,   200, 200, 200,  403],
  getTableRow:        [200, 200, 200, 200,   200, 200, 200,  403],
  findTableRows:      [200, 200, 200, 200,   200, 200, 200,  403],
  getTableJobs:       [200, 200, 200, 200,   200, 200, 200,  403],
  createTable:        [200, 200, 200, 403,   200, 200, 200,  403],
  getOrCreateTable:   [200, 200, 200, 403,   200, 200, 200,  403],
  updateTable:        [200, 200, 200, 403,   200, 200, 200,  403],
  deleteTable:        [200, 200, 200, 403,   200, 200, 200,  403],
  duplicateTable:     [200, 200, 200, 403,   200, 200, 200,  403],
  renameTableColumn:  [200, 200, 200, 403,   200, 200, 200,  403],
  createTableRows:    [200, 200, 200, 403,   200, 200, 200,  403],
  updateTableRows:    [200, 200, 200, 403,   200, 200, 200,  403],
  upsertTableRows:    [200, 200, 200, 403,   200, 200, 200,  403],
  deleteTableRows:    [200, 200, 200, 403,   200, 200, 200,  403],
  importTable:        [404, 404, 404, 403,   404, 404, 404,  403],
  exportTable:        [200, 200, 200, 403,   200, 200, 200,  403],
}

let service: TestService
let counter = 0

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service.close()
})

async function freshTable(): Promise<string> {
  const name = `m${++counter}Table`
  const created = await service.request('POST', '/v1/tables', { body: { name, schema: { n: 1 } } })
  expect(created.status).toBe(200)
  await service.request('POST', `/v1/tables/${name}/rows`, { body: { rows: [{ n: 1 }] } })
  return name
}

describe('tables permission matrix', () => {
  callers.forEach((caller, column) => {
    for (const [operation, call] of Object.entries(calls) as Array<[Operation, Call]>) {
      const status = expected[operation][column]!
      it(`${caller} ${operation} → ${status}`, async () => {
        const table = await freshTable()
        if (operation === 'createTable') await service.request('DELETE', '/v1/tables/freshTable')
        const res = await service.request(call.method, call.path(table), {
          token: caller,
          ...(call.body !== undefined ? { body: call.body } : {}),
          ...(call.query ? { query: call.query } : {}),
        })
        expect(res.status, res.text).toBe(status)
        if (status === 403) {
          expect(res.body.type).toBe('Forbidden')
          const after = await service.request('GET', `/v1/tables/${table}/row`, { query: { id: 1 } })
          expect(after.body.row, 'a refused call changes nothing').toMatchObject({ id: 1, n: 1 })
        }
      })
    }
  })

  it('never lets a bot token reach another bot’s tables', async () => {
    const table = await freshTable()
    const res = await service.request('GET', `/v1/tables/${table}`, { token: 'otherBot' })
    expect(res.status).toBe(404)
  })
})
