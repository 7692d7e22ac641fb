/**
 * The permission matrix of the Tables API: one table of callers × operations generates an allow/deny test
 * for every pair, through the real app (decision 0406).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tablesOperationAccess } from '../../server/src/tables/index.js'
import { startTestService, type TestCaller, type TestService } from '../helpers/service.js'

type Access = 'read' | 'write'

/** Who may do what: `rw` full access, `r` read only, `-` nothing. */
const grants: Record<Exclude<TestCaller, 'otherBot'>, 'rw' | 'r' | '-'> = {
  bot: 'rw',
  alpha: 'rw',
  beta: 'rw',
  viewer: 'r',
  developer: 'rw',
  manager: 'rw',
  administrator: 'rw',
  billing_manager: '-',
}

interface Call {
  method: string
  path: (table: string) => string
  body?: unknown
  query?: Record<string, unknown>
}

/** One request per operation, valid for a table `<name>` holding one row with id 1. */
const calls: Record<keyof typeof tablesOperationAccess, Call> = {
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

function allowed(caller: keyof typeof grants, access: Access): boolean {
  const grant = grants[caller]
  return access === 'read' ? grant !== '-' : grant === 'rw'
}

describe('tables permission matrix', () => {
  for (const caller of Object.keys(grants) as Array<keyof typeof grants>) {
    for (const [operation, call] of Object.entries(calls) as Array<[keyof typeof calls, Call]>) {
      const access = tablesOperationAccess[operation]
      const may = allowed(caller, access)
      it(`${caller} ${may ? 'may' : 'may not'} ${operation} (${access})`, async () => {
        const table = await freshTable()
        if (operation === 'createTable') await service.request('DELETE', '/v1/tables/freshTable')
        const res = await service.request(call.method, call.path(table), {
          token: caller,
          ...(call.body !== undefined ? { body: call.body } : {}),
          ...(call.query ? { query: call.query } : {}),
        })
        if (!may) {
          expect(res.status, res.text).toBe(403)
          expect(res.body.type).toBe('Forbidden')
          const after = await service.request('GET', `/v1/tables/${table}/row`, { query: { id: 1 } })
          expect(after.body.row, 'a refused write changes nothing').toMatchObject({ id: 1, n: 1 })
        } else if (operation === 'importTable' || operation === 'exportTable') {
          expect(res.status, res.text).not.toBe(403)
          expect(res.status, res.text).toBeLessThan(500)
        } else {
          expect(res.status, res.text).toBe(200)
        }
      })
    }
  }

  it('never lets a bot token reach another bot’s tables', async () => {
    const table = await freshTable()
    const res = await service.request('GET', `/v1/tables/${table}`, { token: 'otherBot' })
    expect(res.status).toBe(404)
  })
})
