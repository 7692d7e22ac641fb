import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

// docs/decisions/0701-input-bounds.md: names of prototype members are ordinary names everywhere a user string
// becomes a key or a lookup; "__proto__" alone is refused, with a 400 naming it.

const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const

let service: TestService
beforeAll(async () => {
  service = await startTestService()
  const res = await service.request('POST', '/v1/tables', {
    body: {
      name: 'protoTable',
      schema: {
        type: 'object',
        properties: {
          constructor: { type: 'string' },
          toString: { type: 'string' },
          hasOwnProperty: { type: 'number' },
          valueOf: { type: 'object', properties: { toString: { type: 'string' } } },
        },
      },
      keyColumn: 'toString',
    },
  })
  expect(res.status, res.text).toBe(200)
  const rows = await service.request('POST', '/v1/tables/protoTable/rows', {
    body: {
      rows: [
        { constructor: 'a', toString: 'k1', hasOwnProperty: 1, valueOf: { toString: 'x' } },
        { constructor: 'b', toString: 'k2', hasOwnProperty: 2, valueOf: { toString: 'y' } },
        { constructor: 'a', toString: 'k3', hasOwnProperty: 3 },
      ],
    },
  })
  expect(rows.status, rows.text).toBe(200)
  await service.request('POST', '/v1/tables', { body: { name: 'plainTable', schema: { name: { type: 'string' } } } })
})
afterAll(async () => {
  await service.close()
})

const find = async (body: Record<string, unknown>) => service.request('POST', '/v1/tables/protoTable/rows/find', { body })

describe('tables with columns named like prototype members', () => {
  it('creates them in each schema form, with such a key column', async () => {
    for (const [form, schema] of [
      ['map', { toString: { type: 'string' }, constructor: { type: 'number' } }],
      ['example', { toString: 'x', constructor: 1 }],
    ] as const) {
      const res = await service.request('POST', '/v1/tables', { body: { name: `${form}ProtoTable`, schema, keyColumn: 'toString' } })
      expect(res.status, res.text).toBe(200)
      expect(Object.keys(res.body.table.schema.properties)).toEqual(['toString', 'constructor'])
      expect(res.body.table.keyColumn).toBe('toString')
    }
    const got = await service.request('GET', '/v1/tables/protoTable')
    expect(Object.keys(got.body.table.schema.properties)).toEqual([...NAMES])
  })

  it('filters, selects, groups and orders on them', async () => {
    const ids = (res: { body: { rows: Array<{ id: number }> } }) => res.body.rows.map((r) => r.id)
    expect(ids(await find({ filter: { constructor: 'a' } }))).toEqual([1, 3])
    expect(ids(await find({ filter: { toString: { $in: ['k2', 'k3'] } } }))).toEqual([2, 3])
    expect(ids(await find({ filter: { toString: { $regex: '^k[12]$' } } }))).toEqual([1, 2])
    expect(ids(await find({ filter: { hasOwnProperty: { $gte: 2 }, 'valueOf.toString': 'y' } }))).toEqual([2])
    expect(ids(await find({ filter: { valueOf: { $exists: false } } }))).toEqual([3])
    expect(ids(await find({ orderBy: 'hasOwnProperty', orderDirection: 'desc' }))).toEqual([3, 2, 1])
    const selected = await find({ select: ['valueOf.toString', 'valueOf.constructor'], filter: { toString: 'k1' } })
    expect(selected.body.rows[0]).toEqual({ id: 1, createdAt: expect.any(String), updatedAt: expect.any(String), computed: {}, valueOf: { toString: 'x' } })
    const grouped = await find({ group: { constructor: 'key', hasOwnProperty: ['sum', 'count'] } })
    expect(grouped.body.rows).toEqual([
      { constructorKey: 'a', hasOwnPropertySum: 4, hasOwnPropertyCount: 2 },
      { constructorKey: 'b', hasOwnPropertySum: 2, hasOwnPropertyCount: 1 },
    ])
  })

  it('upserts on the key column "toString", and says so when a row lacks it', async () => {
    const res = await service.request('POST', '/v1/tables/protoTable/rows/upsert', {
      body: { rows: [{ toString: 'k1', hasOwnProperty: 10 }, { toString: 'k9', constructor: 'c' }], keyColumn: 'toString' },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.updated.map((r: { hasOwnProperty: number }) => r.hasOwnProperty)).toEqual([10])
    expect(res.body.inserted.map((r: { toString: string }) => r.toString)).toEqual(['k9'])
    const missing = await service.request('POST', '/v1/tables/protoTable/rows/upsert', { body: { rows: [{ constructor: 'z' }], keyColumn: 'toString' } })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toContain('rows.0.toString: the key column needs a value, received missing')
  })

  it('renames such a column and back, and deletes by a filter on one', async () => {
    const away = await service.request('PUT', '/v1/tables/protoTable/column', { body: { name: 'constructor', newName: 'maker' } })
    expect(away.status, away.text).toBe(200)
    const back = await service.request('PUT', '/v1/tables/protoTable/column', { body: { name: 'maker', newName: 'constructor' } })
    expect(back.status, back.text).toBe(200)
    expect(Object.keys(back.body.table.schema.properties)).toContain('constructor')
    const deleted = await service.request('POST', '/v1/tables/protoTable/rows/delete', { body: { filter: { constructor: 'c' } } })
    expect(deleted.body).toMatchObject({ deletedRows: 1 })
  })
})

describe('prototype names on a table without such columns', () => {
  it('are unknown columns in filters, selects, groups and orderBy (400, not 500)', async () => {
    for (const name of [...NAMES, '__proto__']) {
      for (const body of [{ filter: { [name]: 'x' } }, { select: [name] }, { group: { [name]: 'key' } }, { orderBy: name }]) {
        const res = await service.request('POST', '/v1/tables/plainTable/rows/find', { body: JSON.stringify(body) })
        expect(res.status, `${name} ${JSON.stringify(body)}: ${res.text}`).toBe(400)
        expect(['InvalidQuery', 'InvalidPayload']).toContain(res.body.type)
      }
    }
  })

  it('are not key columns, not renamable, and removing one changes nothing', async () => {
    for (const name of NAMES) {
      const created = await service.request('POST', '/v1/tables', { body: { name: `kc${name}Table`, schema: { name: { type: 'string' } }, keyColumn: name } })
      expect(created.status, created.text).toBe(400)
      expect(created.body.message).toBe(`keyColumn: "${name}" is not a column of the table`)
      const updated = await service.request('PUT', '/v1/tables/plainTable', { body: { keyColumn: name } })
      expect(updated.body.message).toBe(`keyColumn: "${name}" is not a column of the table`)
      const renamed = await service.request('PUT', '/v1/tables/plainTable/column', { body: { name, newName: 'other' } })
      expect(renamed.status).toBe(404)
      const upsert = await service.request('POST', '/v1/tables/plainTable/rows/upsert', { body: { rows: [{ name: 'x' }], keyColumn: name } })
      expect(upsert.body.message).toBe(`keyColumn: "${name}" is not a column of table "plainTable"`)
      const removed = await service.request('PUT', '/v1/tables/plainTable', { body: { schema: { [name]: null } } })
      expect(removed.status, removed.text).toBe(200)
      expect(Object.keys(removed.body.table.schema.properties)).toEqual(['name'])
    }
  })

  it('refuses "__proto__" as a new column name and as a key column', async () => {
    const renamed = await service.request('PUT', '/v1/tables/plainTable/column', { body: { name: 'name', newName: '__proto__' } })
    expect(renamed.status).toBe(400)
    expect(renamed.body.message).toMatch(/^newName: column name "__proto__" is not allowed/)
    const keyed = await service.request('PUT', '/v1/tables/plainTable', { body: { keyColumn: '__proto__' } })
    expect(keyed.body.message).toBe('keyColumn: "__proto__" is not a column of the table')
  })
})

describe('tags named like prototype members', () => {
  it('filter tables on them', async () => {
    for (const name of NAMES) {
      const res = await service.request('POST', '/v1/tables', { body: { name: `tag${name}Table`, schema: { a: 'x' }, tags: { [name]: 'yes' } } })
      expect(res.status, res.text).toBe(200)
      expect(res.body.table.tags).toEqual({ [name]: 'yes' })
      const listed = await service.request('GET', '/v1/tables', { query: { tags: { [name]: 'yes' } } })
      expect(listed.body.tables.map((t: { name: string }) => t.name)).toEqual([`tag${name}Table`])
    }
  })
})
