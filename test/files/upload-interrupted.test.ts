import { request as httpRequest } from 'node:http'
import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, uploadText } from './helpers.js'

let service: TestService
afterEach(async () => {
  await service.close()
})

// Polls a condition by attempts, not by wall time, so a loaded machine does not run out of time (test/helpers).
const until = (check: () => Promise<boolean>, what: string): Promise<true> => eventually(async () => ((await check()) ? true : undefined), what)

/** The log lines of the upload PUTs (request log and anything carrying their request id). */
function uploadLines(logs: TestService['logs']): Array<Record<string, unknown>> {
  const ids = new Set(logs.filter((line) => String(line.path ?? '').startsWith('/v1/content/upload/')).map((line) => line.requestId))
  return logs.filter((line) => ids.has(line.requestId))
}

/** No error-level line, no "unhandled error" line and no 5xx request line anywhere in the log. */
function expectNoServerError(logs: TestService['logs']): void {
  expect(logs.filter((line) => line.level === 'error')).toEqual([])
  expect(logs.filter((line) => line.msg === 'unhandled error')).toEqual([])
  expect(logs.filter((line) => line.msg === 'request' && Number(line.status) >= 500)).toEqual([])
}

describe('an upload that breaks off', () => {
  it('marks the version upload_failed, keeps the previous content, and leaves no temporary file', async () => {
    service = await startTestService({ listen: true })
    const client = service.botpressClient('bot')
    await client.uploadFile({ key: 'doc.txt', content: 'first version' })
    const { file } = await client.upsertFile({ key: 'doc.txt', size: 100_000 })

    await new Promise<void>((resolve) => {
      const req = httpRequest(file.uploadUrl, { method: 'PUT', headers: { 'content-length': '100000' } })
      req.on('error', () => resolve())
      req.write(Buffer.alloc(30_000, 1), () => {
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      })
    })

    await until(async () => (await client.getFile({ id: 'doc.txt' })).file.status === 'upload_failed', 'the upload recorded failed')
    const after = (await client.getFile({ id: 'doc.txt' })).file
    expect(after.failedStatusReason).toMatch(/interrupted/)
    expect(after.size).toBe(13)
    expect(await (await fetch(after.url)).text()).toBe('first version')
    const tmp = join(service.contentDir, 'files', 'tmp')
    await until(async () => (await readdir(tmp)).length === 0, 'the temp folder empty')
    expect(await readdir(join(service.contentDir, 'files', 'blobs'))).toHaveLength(1)
  })

  it('logs a client disconnect as a warning, not as a 500 "unhandled error"', async () => {
    service = await startTestService({ listen: true })
    const client = service.botpressClient('bot')
    const { file } = await client.upsertFile({ key: 'gone.txt', size: 100_000 })

    await new Promise<void>((resolve) => {
      const req = httpRequest(file.uploadUrl, { method: 'PUT', headers: { 'content-length': '100000' } })
      req.on('error', () => resolve())
      req.write(Buffer.alloc(30_000, 1), () => {
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      })
    })
    // The request log line is written when the server gives up on the request.
    await until(async () => uploadLines(service.logs).some((line) => line.msg === 'request'), 'the request logged')

    const lines = uploadLines(service.logs)
    const aborted = lines.filter((line) => line.msg === 'upload aborted by the client')
    expect(aborted).toHaveLength(1)
    expect(aborted[0]).toMatchObject({ level: 'warn', fileId: file.id, declaredSize: 100_000 })
    expect(aborted[0]!.bytesReceived).toBeGreaterThan(0)
    expect(aborted[0]!.bytesReceived).toBeLessThan(100_000)
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ level: 'info', method: 'PUT', status: 499 })
    expectNoServerError(service.logs)
    expect((await client.getFile({ id: 'gone.txt' })).file.status).toBe('upload_failed')
  })

  it('treats a body stream that errors in process the same way', async () => {
    service = await startTestService()
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'stream.txt', size: 1000 } })
    expect(upsert.status).toBe(200)
    let sent = false
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true
          controller.enqueue(new Uint8Array(400).fill(7))
        } else {
          controller.error(new Error('socket hang up'))
        }
      },
    })
    const init = { method: 'PUT', body, duplex: 'half' } as RequestInit
    const response = await fetchUrl(service, upsert.body.file.uploadUrl, init)
    expect(response.status).toBe(499)

    const aborted = uploadLines(service.logs).filter((line) => line.msg === 'upload aborted by the client')
    expect(aborted).toEqual([expect.objectContaining({ level: 'warn', bytesReceived: 400, reason: 'socket hang up' })])
    expectNoServerError(service.logs)
    const after = await service.request('GET', `/v1/files/stream.txt`)
    expect(after.body.file).toMatchObject({ status: 'upload_failed', failedStatusReason: expect.stringMatching(/interrupted/) })
  })

  it('still reports the server failing to store the content as a 500 with its error logged', async () => {
    service = await startTestService()
    // The temporary folder replaced by a plain file: the server cannot open its temporary file (ENOTDIR).
    const tmp = join(service.contentDir, 'files', 'tmp')
    await rm(tmp, { recursive: true, force: true })
    await writeFile(tmp, 'not a folder')

    const { putStatus } = await uploadText(service, 'disk.txt', 'hello')
    expect(putStatus).toBe(500)
    expect(service.logs.filter((line) => line.msg === 'upload aborted by the client')).toEqual([])
    expect(uploadLines(service.logs).filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({ msg: 'unhandled error', error: expect.stringContaining('ENOTDIR') }),
      // A 5xx request line is logged at error too (docs/operations.md).
      expect.objectContaining({ msg: 'request', status: 500 }),
    ])
    const after = await service.request('GET', '/v1/files/disk.txt')
    expect(after.body.file).toMatchObject({ status: 'upload_failed', failedStatusReason: 'the server could not store the content' })
  })
})
