import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service.close()
})

/** Downloads a file's content through its signed URL (no token). */
async function download(fileId: string): Promise<Buffer> {
  const { body } = await service.request('GET', `/v1/files/${fileId}`)
  const url = new URL(body.file.url)
  const res = await service.app.fetch(new Request(`http://botshelf.test${url.pathname}${url.search}`))
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}

/** Uploads bytes as a new file through upsertFile + the upload URL; returns the file id. */
async function upload(key: string, bytes: Uint8Array): Promise<string> {
  const { body } = await service.request('PUT', '/v1/files', { body: { key, size: bytes.byteLength } })
  const url = new URL(body.file.uploadUrl)
  const res = await service.app.fetch(new Request(`http://botshelf.test${url.pathname}${url.search}`, { method: 'PUT', body: bytes as unknown as BodyInit }))
  expect(res.status).toBeLessThan(300)
  return body.file.id
}

async function makeTable(name: string) {
  await service.request('POST', '/v1/tables', {
    body: { name, schema: { type: 'object', properties: { name: { type: 'string' }, score: { type: 'number' }, ok: { type: 'boolean' }, meta: { type: 'object' }, note: { type: 'string' } } } },
  })
}

describe('exportTable and importTable through the Files API', () => {
  it('exports CSV to a file and imports it back into another table, values intact', async () => {
    await makeTable('srcTable')
    await service.request('POST', '/v1/tables/srcTable/rows', {
      body: { rows: [{ name: 'Ada, "the first"', score: 1.5, ok: true, meta: { a: [1] }, note: '' }, { name: 'line\nbreak', score: -2 }] },
    })
    const exported = await service.request('GET', '/v1/tables/srcTable/export', { query: { format: 'csv', compress: false } })
    expect(exported.status, exported.text).toBe(200)
    expect(exported.body.job).toMatchObject({ type: 'export', status: 'completed', progress: 1, inputFileId: null })
    const csv = (await download(exported.body.job.outputFileId)).toString('utf8')
    expect(csv.split('\r\n')[0]).toBe('id,createdAt,updatedAt,name,score,ok,meta,note')

    await makeTable('dstTable')
    const imported = await service.request('POST', '/v1/tables/dstTable/import', { body: { fileId: exported.body.job.outputFileId } })
    expect(imported.status, imported.text).toBe(200)
    expect(imported.body.job).toMatchObject({ type: 'import', status: 'completed', inputFileId: exported.body.job.outputFileId })
    const { body } = await service.request('POST', '/v1/tables/dstTable/rows/find', { body: {} })
    expect(body.rows.map((r: Record<string, unknown>) => [r['name'], r['score'], r['ok'], r['meta'], r['note']])).toEqual([
      ['Ada, "the first"', 1.5, true, { a: [1] }, ''],
      ['line\nbreak', -2, null, null, null],
    ])
    const jobs = await service.request('GET', '/v1/tables/dstTable/jobs')
    expect(jobs.body.jobs.map((j: { type: string; status: string }) => [j.type, j.status])).toEqual([['import', 'completed']])
  })

  it('exports gzipped JSON with the schema by default', async () => {
    await makeTable('jsonTable')
    await service.request('POST', '/v1/tables/jsonTable/rows', { body: { rows: [{ name: 'x', score: 3 }] } })
    const exported = await service.request('GET', '/v1/tables/jsonTable/export')
    const content = JSON.parse(gunzipSync(await download(exported.body.job.outputFileId)).toString('utf8'))
    expect(content.table).toBe('jsonTable')
    expect(Object.keys(content.schema.properties)).toEqual(['name', 'score', 'ok', 'meta', 'note'])
    expect(content.rows).toEqual([expect.objectContaining({ id: 1, name: 'x', score: 3, ok: null })])
    const file = await service.request('GET', `/v1/files/${exported.body.job.outputFileId}`)
    expect(file.body.file).toMatchObject({ contentType: 'application/gzip', status: 'upload_completed', key: `tables/jsonTable/${exported.body.job.id}.json.gz` })
  })

  it('imports an uploaded gzipped CSV, keeping existing rows', async () => {
    await makeTable('upTable')
    await service.request('POST', '/v1/tables/upTable/rows', { body: { rows: [{ name: 'kept' }] } })
    const fileId = await upload('imports/people.csv.gz', gzipSync(Buffer.from('name,score,unknown\nBea,2,zzz\nCid,,\n')))
    const res = await service.request('POST', '/v1/tables/upTable/import', { body: { fileId } })
    expect(res.status, res.text).toBe(200)
    const { body } = await service.request('POST', '/v1/tables/upTable/rows/find', { body: {} })
    expect(body.rows.map((r: Record<string, unknown>) => [r['name'], r['score']])).toEqual([['kept', null], ['Bea', 2], ['Cid', null]])
  })

  it('refuses a file whose rows do not fit, imports nothing and records the job as failed', async () => {
    await makeTable('badTable')
    const fileId = await upload('imports/bad.json', Buffer.from(JSON.stringify([{ name: 'ok' }, { name: 'bad', score: 'high' }])))
    const res = await service.request('POST', '/v1/tables/badTable/import', { body: { fileId } })
    expect(res.status).toBe(400)
    expect(res.body.type).toBe('InvalidDataFormat')
    expect(res.body.message).toContain('rows.1.score: expected number, received "high"')
    expect((await service.request('GET', '/v1/tables/badTable')).body.rows).toBe(0)
    const jobs = await service.request('GET', '/v1/tables/badTable/jobs')
    expect(jobs.body.jobs.map((j: { status: string }) => j.status)).toEqual(['failed'])
  })

  it('answers a missing file with ResourceNotFound', async () => {
    await makeTable('missTable')
    const res = await service.request('POST', '/v1/tables/missTable/import', { body: { fileId: 'file_01ABCDEFGHJKMNPQRSTVWXYZ01' } })
    expect([res.status, res.body.type]).toEqual([404, 'ResourceNotFound'])
  })
})
