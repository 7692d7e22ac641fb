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

  it('accepts a 1 MB files payload within the wire\'s limit; bounds merged metadata by the same 1 MiB', async () => {
    // Decision 1441: whatever metadata fits a valid 1 MB request is accepted (it was capped at 64 KB).
    const near = { text: 'x'.repeat(1_000_000) }
    const body = JSON.stringify({ key: 'meta.txt', size: 1, metadata: near })
    expect(Buffer.byteLength(body)).toBeGreaterThan(1_000_000)
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024)
    const accepted = await service.request('PUT', '/v1/files', { body })
    expect(accepted.status).toBe(200)
    expect(accepted.body.file.metadata.text).toHaveLength(1_000_000)
    // A body past the files payload limit is refused by the body limit.
    const over = await service.request('PUT', '/v1/files', { body: { key: 'meta.txt', size: 1, metadata: { text: 'x'.repeat(1_100_000) } } })
    expect(over.status).toBe(413)
    expect(over.body.type).toBe('PayloadTooLarge')
    // Two patches that fit one request each cannot together pass the bound after the merge.
    const half = { a: 'y'.repeat(600_000) }
    const created = await service.request('PUT', '/v1/files', { body: { key: 'merged.txt', size: 1, metadata: half } })
    expect(created.status).toBe(200)
    const merged = await service.request('PUT', `/v1/files/${created.body.file.id}`, { body: { metadata: { b: 'z'.repeat(600_000) } } })
    expect(merged.status).toBe(400)
    expect(merged.body.message).toMatch(/^metadata: expected at most 1048576 bytes of metadata as JSON after the merge, received 12000\d\d$/)
    const replaced = await service.request('PUT', `/v1/files/${created.body.file.id}`, { body: { metadata: { a: null, b: 'z'.repeat(600_000) } } })
    expect(replaced.status).toBe(200)
    expect(Object.keys(replaced.body.file.metadata)).toEqual(['b'])
  })

  it('refuses more than 50 tags on a table', async () => {
    const tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`key${i}`, 'v']))
    const refused = await service.request('POST', '/v1/tables', { body: { name: 'taggedTable', schema: { a: { type: 'string' } }, tags } })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('Invalid request body: tags: expected at most 50 tags, received 51')
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key${i}`, 'v']))
    expect((await service.request('POST', '/v1/tables', { body: { name: 'taggedTable', schema: { a: { type: 'string' } }, tags: fifty } })).status).toBe(200)
    expect((await service.request('PUT', '/v1/tables/taggedTable', { body: { tags } })).status).toBe(400)
  })
})
