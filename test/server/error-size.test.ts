import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

// An answer must not be an amplifier: a 300 KB body with 20,000 bad values once got a 3.85 MB 400.
describe('validation errors stay small whatever the number of bad values', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ rateLimit: false })
  })
  afterAll(async () => service?.close())

  it('lists the first 20 issues and counts the rest (knowledge base with 20,000 bad tags)', async () => {
    const tags = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))
    const response = await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'kb', tags } })
    expect(response.status).toBe(400)
    expect(response.text.length).toBeLessThan(20_000)
    expect(response.body.metadata.issues).toHaveLength(20)
    expect(response.body.metadata.issueCount).toBe(20_000)
    expect(response.body.message).toMatch(/… and 19980 more issues$/)
    expect(response.body.metadata.issues[0]).toMatchObject({ path: 'tags.k0', expected: 'string' })
  })

  it('cuts a long received value in the issue (a 100,000-character value where a number goes)', async () => {
    await service.request('POST', '/v1/tables', { body: { name: 'sizesTable', schema: { n: { type: 'number' } } } })
    const response = await service.request('POST', '/v1/tables/sizesTable/rows', { body: { rows: [{ n: 'x'.repeat(100_000) }] } })
    expect(response.status).toBe(400)
    expect(response.text.length).toBeLessThan(5_000)
  })

  it('keeps every issue when there are 20 or fewer, without a count', async () => {
    const tags = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`k${i}`, i]))
    const response = await service.request('POST', '/v1/files/knowledge-bases', { body: { name: 'kb', tags } })
    expect(response.status).toBe(400)
    expect(response.body.metadata.issues).toHaveLength(3)
    expect(response.body.metadata.issueCount).toBeUndefined()
  })
})

describe('bounds on what one file or table carries', () => {
  let service: TestService
  beforeAll(async () => {
    service = await startTestService({ rateLimit: false })
  })
  afterAll(async () => service?.close())

  it('refuses file metadata over 64 KB as JSON, at upsert and after a merge', async () => {
    const big = { text: 'x'.repeat(70_000) }
    const refused = await service.request('PUT', '/v1/files', { body: { key: 'meta.txt', size: 1, metadata: big } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toMatch(/^Invalid request body: metadata: expected at most 65536 bytes of metadata as JSON, received 700\d\d$/)
    const half = { a: 'y'.repeat(40_000) }
    const created = await service.request('PUT', '/v1/files', { body: { key: 'meta.txt', size: 1, metadata: half } })
    expect(created.status).toBe(200)
    const merged = await service.request('PUT', `/v1/files/${created.body.file.id}`, { body: { metadata: { b: 'z'.repeat(40_000) } } })
    expect(merged.status).toBe(400)
    expect(merged.body.message).toMatch(/^metadata: expected at most 65536 bytes of metadata as JSON after the merge, received 800\d\d$/)
    const replaced = await service.request('PUT', `/v1/files/${created.body.file.id}`, { body: { metadata: { a: null, b: 'z'.repeat(40_000) } } })
    expect(replaced.status).toBe(200)
    expect(Object.keys(replaced.body.file.metadata)).toEqual(['b'])
  })

  it('refuses more than 50 tags on a table', async () => {
    const tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, 'v']))
    const refused = await service.request('POST', '/v1/tables', { body: { name: 'taggedTable', schema: { a: { type: 'string' } }, tags } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('Invalid request body: tags: expected at most 50 tags')
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, 'v']))
    expect((await service.request('POST', '/v1/tables', { body: { name: 'taggedTable', schema: { a: { type: 'string' } }, tags: fifty } })).status).toBe(200)
    expect((await service.request('PUT', '/v1/tables/taggedTable', { body: { tags } })).status).toBe(400)
  })
})
