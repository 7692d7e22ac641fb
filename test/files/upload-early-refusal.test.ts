import http from 'node:http'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService
beforeEach(async () => {
  service = await startTestService({ listen: true })
})
afterEach(async () => {
  await service.close()
})

/**
 * Sends the head of a PUT announcing `contentLength` bytes and none of the body, then waits for the answer.
 * Only a server that answers without reading the body can answer at all; `waitMs` later the request is abandoned.
 */
function putHeadOnly(url: string, contentLength: number, waitMs: number): Promise<{ status: number; body: string } | 'no answer'> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', agent: false, headers: { 'content-type': 'application/octet-stream', 'content-length': contentLength } })
    const timer = setTimeout(() => {
      request.destroy()
      resolve('no answer')
    }, waitMs)
    request.on('response', (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => {
        clearTimeout(timer)
        request.destroy()
        resolve({ status: response.statusCode ?? 0, body })
      })
    })
    request.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    request.flushHeaders()
  })
}

describe('an upload announcing more than upsertFile declared', () => {
  it('is refused from its Content-Length alone, before any byte of the body arrives: 413 with the reason, upload_failed recorded', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'announced.bin', size: 3 } })
    const answer = await putHeadOnly(upsert.body.file.uploadUrl, 1000, 3000)
    expect(answer).not.toBe('no answer')
    const { status, body } = answer as { status: number; body: string }
    const reason = 'Content-Length 1000 exceeds the size declared in upsertFile (3 bytes)'
    expect(status).toBe(413)
    expect(JSON.parse(body)).toMatchObject({ code: 413, type: 'PayloadTooLarge', message: reason, metadata: { id: upsert.body.file.id } })
    const file = (await service.request('GET', '/v1/files/announced.bin')).body.file
    expect(file).toMatchObject({ status: 'upload_failed', size: null, failedStatusReason: reason })
    const root = join(service.contentDir, 'files')
    expect({ blobs: await readdir(join(root, 'blobs')), tmp: await readdir(join(root, 'tmp')) }).toEqual({ blobs: [], tmp: [] })
  })

  it('a Content-Length equal to the declared size is not refused early: the server waits for the body', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'exact.bin', size: 3 } })
    expect(await putHeadOnly(upsert.body.file.uploadUrl, 3, 300)).toBe('no answer')
  })
})
