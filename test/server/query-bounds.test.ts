import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBodySchema } from '../../src/api/error-body.js'
import { startTestService, type TestResponse, type TestService } from '../helpers/service.js'

// docs/decisions/0701-input-bounds.md: tag filters take at most 50 keys and 100 values per key, a row filter at
// most 1000 terms; past that the answer is a 400 naming the limit, never a database error (500).

let service: TestService
beforeAll(async () => {
  service = await startTestService()
  expect((await service.request('PUT', '/v1/files', { body: { key: 'tagged.txt', size: 1, tags: { k0: 'v', k49: 'v' } } })).status).toBe(200)
  expect((await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'kb', tags: { k0: 'v', k49: 'v' } } })).status).toBe(200)
  expect((await service.request('POST', '/v1/tables', { body: { name: 'taggedTable', schema: { n: { type: 'number' } }, tags: { k0: 'v' } } })).status).toBe(200)
  expect((await service.request('POST', '/v1/tables/taggedTable/rows', { body: { rows: [{ n: 1 }, { n: 2 }, { n: 3 }] } })).status).toBe(200)
})
afterAll(async () => {
  await service.close()
})

/** `tags.k0=v&tags.k1=v…` with `keys` keys, as `@botpress/client` writes a tag filter. */
const tagKeys = (keys: number) => Array.from({ length: keys }, (_, i) => `tags.k${i}=v`).join('&')

function expect400(res: TestResponse, type: string, message: string): void {
  expect(res.status, res.text).toBe(400)
  const body = ErrorBodySchema.parse(res.body)
  expect(body.type).toBe(type)
  expect(body.message).toBe(message)
}

describe('tag filters of the list operations', () => {
  it.each([
    ['listFiles', '/v1/files'],
    ['listKnowledgeBases', '/v1/files/knowledge-bases'],
  ])('%s: 50 keys work, 1000 keys answer 400 naming the limit', async (_name, path) => {
    const ok = await service.request('GET', `${path}?${tagKeys(2).replace('k1', 'k49')}`)
    expect(ok.status, ok.text).toBe(200)
    expect(Object.values(ok.body).find(Array.isArray)).toHaveLength(1)
    expect((await service.request('GET', `${path}?${tagKeys(50)}`)).status).toBe(200)
    expect400(await service.request('GET', `${path}?${tagKeys(1000)}`), 'InvalidPayload', 'Invalid query parameters: tags: expected at most 50 tag keys, received 1000')
  })

  it('listFiles: at most 100 values for one key, in and not together', async () => {
    const values = (n: number, op = '') => Array.from({ length: n }, (_, i) => `tags.k0${op}=v${i}`).join('&')
    expect((await service.request('GET', `/v1/files?${values(100)}`)).status).toBe(200)
    expect400(await service.request('GET', `/v1/files?${values(101)}`), 'InvalidPayload', 'Invalid query parameters: tags.k0: expected at most 100 values, received 101')
    expect400(
      await service.request('GET', `/v1/files?${values(60, '.in')}&${values(60, '.not')}`),
      'InvalidPayload',
      'Invalid query parameters: tags.k0: expected at most 100 values, received 120',
    )
  })

  it('searchFiles checks the same bounds before answering', async () => {
    expect400(await service.request('GET', `/v1/files/search?query=x&${tagKeys(51)}`), 'InvalidPayload', 'Invalid query parameters: tags: expected at most 50 tag keys, received 51')
  })

  it('listTables: 50 keys work, 1000 keys answer 400 naming the limit', async () => {
    const ok = await service.request('GET', `/v1/tables?tags.k0=v`)
    expect(ok.body.tables.map((t: { name: string }) => t.name)).toEqual(['taggedTable'])
    expect((await service.request('GET', `/v1/tables?${tagKeys(50)}`)).status).toBe(200)
    expect400(await service.request('GET', `/v1/tables?${tagKeys(1000)}`), 'InvalidPayload', 'Invalid query parameters: tags: expected at most 50 tag keys, received 1000')
  })
})

describe('select of findTableRows', () => {
  it('takes at most 100 columns or paths (each is copied out of every row returned)', async () => {
    const ok = await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { select: Array.from({ length: 100 }, () => 'n') } })
    expect(ok.status, ok.text).toBe(200)
    expect400(
      await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { select: Array.from({ length: 200_000 }, () => 'n.x') } }),
      'InvalidPayload',
      'Invalid request body: select: expected at most 100 items, received 200000 items',
    )
  })
})

describe('terms of a row filter', () => {
  const or = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ n: i + 2 })) })

  it('findTableRows: 999 alternatives work (a flat SQL chain used to fail at 1000 levels), 3000 answer 400', async () => {
    const ok = await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { filter: or(999) } })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.rows.map((r: { n: number }) => r.n)).toEqual([2, 3])
    expect400(
      await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { filter: or(3000) } }),
      'InvalidQuery',
      'filter: too large (3001 conditions and operators; at most 1000); use $in for many values of one column',
    )
  })

  it('deleteTableRows by filter: the same bound, and nothing deleted', async () => {
    expect400(
      await service.request('POST', '/v1/tables/taggedTable/rows/delete', { body: { filter: { $and: Array.from({ length: 3000 }, () => ({ n: 1 })) } } }),
      'InvalidQuery',
      'filter: too large (3001 conditions and operators; at most 1000); use $in for many values of one column',
    )
    const all = await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: {} })
    expect(all.body.rows).toHaveLength(3)
  })
})

// Finding 5 of issue 28: PostgreSQL answered 500 ("out of range for type integer"), SQLite 200.
describe('integers of findTableRows past PostgreSQL integer', () => {
  it('an offset or a $size of 2^53 - 1 answers InvalidQuery on every engine; 2^31 - 1 still works', async () => {
    await service.request('POST', '/v1/tables', { body: { name: 'sizedTable', schema: { list: { type: 'array', items: { type: 'string' } } } } })
    await service.request('POST', '/v1/tables/sizedTable/rows', { body: { rows: [{ list: ['a'] }] } })
    const huge = Number.MAX_SAFE_INTEGER
    expect400(await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { offset: huge } }), 'InvalidQuery', `offset: expected at most 2147483647, received ${huge}`)
    const size = await service.request('POST', '/v1/tables/sizedTable/rows/find', { body: { filter: { list: { $size: huge } } } })
    expect(size.status, size.text).toBe(400)
    expect(size.body.type).toBe('InvalidQuery')
    expect(size.body.message).toContain('an integer from 0 to 2147483647')
    const far = await service.request('POST', '/v1/tables/taggedTable/rows/find', { body: { offset: 2_147_483_647 } })
    expect(far.status, far.text).toBe(200)
    expect(far.body.rows).toEqual([])
    expect((await service.request('POST', '/v1/tables/sizedTable/rows/find', { body: { filter: { list: { $size: 2_147_483_647 } } } })).body.rows).toEqual([])
  })
})
