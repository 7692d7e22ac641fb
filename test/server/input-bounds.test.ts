import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { ErrorBodySchema } from '../../src/api/error-body.js'
import { startTestService, type TestService, type TestResponse } from '../helpers/service.js'

// docs/decisions/0701-input-bounds.md: JSON nests at most 64 levels and no object has the key "__proto__", in
// every request body and JSON query value; stored values that arrive another way (imported rows) are bounded too.

let service: TestService
beforeAll(async () => {
  service = await startTestService()
  const created = await service.request('POST', '/v1/tables', {
    body: { name: 'boundsTable', schema: { type: 'object', properties: { o: { type: 'object' }, list: { type: 'array' }, s: { type: 'string' } } } },
  })
  expect(created.status, created.text).toBe(200)
})
afterAll(async () => {
  await service.close()
})

/** `{"a":{"a":…1…}}` with `levels` objects. */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`

function expectInvalid(res: TestResponse, type: string, message: string | RegExp): void {
  expect(res.status, res.text).toBe(400)
  const body = ErrorBodySchema.parse(res.body)
  expect(body.type).toBe(type)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

describe('JSON nesting in request bodies', () => {
  it('answers 400 naming the path for deep file metadata (upsertFile, updateFileMetadata), not 500', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: `{"key":"deep.txt","size":1,"metadata":${nestedText(5000)}}` })
    expectInvalid(upsert, 'InvalidPayload', 'Invalid request body: metadata.a.a.a.a.a.a.a…: expected at most 64 levels of nesting, received more than 64')
    expect(upsert.body.metadata.issues).toEqual([
      { path: 'metadata.a.a.a.a.a.a.a…', expected: 'at most 64 levels of nesting', received: 'more than 64', message: expect.any(String) },
    ])
    const created = await service.request('PUT', '/v1/files', { body: { key: 'shallow.txt', size: 1 } })
    expect(created.status).toBe(200)
    const update = await service.request('PUT', '/v1/files/shallow.txt', { body: `{"metadata":{"x":${nestedText(100)}}}` })
    expectInvalid(update, 'InvalidPayload', /^Invalid request body: metadata\.x\.a\.a\.a\.a\.a\.a…: expected at most 64 levels of nesting/)
  })

  it('keeps metadata just under the limit intact', async () => {
    // The body, metadata and key "x" take 3 levels: 61 more objects fit.
    const res = await service.request('PUT', '/v1/files', { body: `{"key":"limit.txt","size":1,"metadata":{"x":${nestedText(61)}}}` })
    expect(res.status, res.text).toBe(200)
    const got = await service.request('GET', '/v1/files/limit.txt')
    expect(JSON.stringify(got.body.file.metadata)).toBe(`{"x":${nestedText(61)}}`)
  })

  it('answers 400 for a deep row value and a deep table schema, not 500', async () => {
    const rows = await service.request('POST', '/v1/tables/boundsTable/rows', { body: `{"rows":[{"o":${nestedText(5000)}}]}` })
    expectInvalid(rows, 'InvalidPayload', 'Invalid request body: rows.0.o.a.a.a.a.a…: expected at most 64 levels of nesting, received more than 64')
    const schema = await service.request('POST', '/v1/tables', {
      body: `{"name":"deepTable","schema":{"type":"object","properties":{"o":{"type":"object","properties":${nestedText(5000)}}}}}`,
    })
    expectInvalid(schema, 'InvalidPayload', /^Invalid request body: schema\.properties\.o\.properties\.a\.a\.a\.a…: expected at most 64 levels/)
    const update = await service.request('PUT', '/v1/tables/boundsTable', { body: `{"schema":{"o":{"type":"object","x-zui":{"typings":${nestedText(200)}}}}}` })
    expectInvalid(update, 'InvalidPayload', /^Invalid request body: schema\.o\.x-zui\.typings\.a\.a\.a\.a…: expected at most 64 levels/)
  })

  it('answers 400 for a deep JSON object in a query parameter', async () => {
    const tags = encodeURIComponent(`{"k":{"in":${'['.repeat(100)}${']'.repeat(100)}}}`)
    const res = await service.request('GET', `/v1/files?tags=${tags}`)
    expectInvalid(res, 'InvalidPayload', 'Invalid query parameters: tags.k.in.0.0.0.0.0…: expected at most 64 levels of nesting, received more than 64')
  })

  it('refuses an imported row nested too deep: the job fails with the reason, nothing is imported', async () => {
    const text = `{"rows":[{"s":"fine"},{"o":${nestedText(3000)}}]}`
    const file = await service.request('PUT', '/v1/files', { body: { key: 'deep-rows.json', size: Buffer.byteLength(text), contentType: 'application/json' } })
    const url = new URL(file.body.file.uploadUrl)
    const put = await service.app.fetch(new Request(`http://botshelf.test${url.pathname}${url.search}`, { method: 'PUT', body: text }))
    expect(put.status).toBeLessThan(300)
    const started = await service.request('POST', '/v1/tables/boundsTable/import', { body: { fileId: file.body.file.id } })
    expect(started.status, started.text).toBe(200)
    const job = await eventually(async () => {
      const { body } = await service.request('GET', '/v1/tables/boundsTable/jobs')
      const latest: Record<string, unknown> | undefined = body.jobs.find((j: { id: string }) => j.id === started.body.job.id)
      return latest?.['status'] === 'failed' || latest?.['status'] === 'completed' ? latest : undefined
    }, 'the import to end')
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('rows.1.o: expected at most 64 levels of nesting, received more (at a.a.a.a.a.a.a.a…)') })
    const found = await service.request('POST', '/v1/tables/boundsTable/rows/find', { body: { filter: { s: 'fine' } } })
    expect(found.body.rows).toEqual([])
  })
})

describe('the key "__proto__"', () => {
  const refused = /expected a key other than "__proto__", received "__proto__"$/

  it('is refused in file metadata and tags, knowledge base tags, rows, schemas and filters', async () => {
    const cases: Array<[string, string, string, string]> = [
      ['PUT', '/v1/files', '{"key":"p.txt","size":1,"metadata":{"__proto__":{"x":1}}}', 'metadata.__proto__'],
      ['PUT', '/v1/files', '{"key":"p.txt","size":1,"tags":{"__proto__":"v"}}', 'tags.__proto__'],
      ['POST', '/v1/files/knowledge-bases', '{"name":"kb","tags":{"__proto__":"v"}}', 'tags.__proto__'],
      ['POST', '/v1/tables/boundsTable/rows', '{"rows":[{"s":"x","__proto__":"y"}]}', 'rows.0.__proto__'],
      ['POST', '/v1/tables/boundsTable/rows', '{"rows":[{"o":{"inner":{"__proto__":1}}}]}', 'rows.0.o.inner.__proto__'],
      ['POST', '/v1/tables', '{"name":"protoTable","schema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}', 'schema.properties.__proto__'],
      ['POST', '/v1/tables', '{"name":"protoTable","schema":{"__proto__":"x"}}', 'schema.__proto__'],
      ['POST', '/v1/tables/boundsTable/rows/find', '{"filter":{"__proto__":"x"}}', 'filter.__proto__'],
      ['POST', '/v1/tables/boundsTable/rows/find', '{"group":{"__proto__":"key"}}', 'group.__proto__'],
    ]
    for (const [method, path, body, where] of cases) {
      const res = await service.request(method, path, { body })
      expectInvalid(res, 'InvalidPayload', refused)
      expect(res.body.message).toBe(`Invalid request body: ${where}: expected a key other than "__proto__", received "__proto__"`)
    }
  })

  it('is refused as a query parameter name instead of being dropped (which would list every file)', async () => {
    const res = await service.request('GET', '/v1/files?tags.__proto__=v')
    expectInvalid(res, 'InvalidPayload', 'Invalid query parameters: tags.__proto__: expected a parameter name without "__proto__", received "tags.__proto__"')
  })
})
