import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createS3BlobStore, type S3BlobStore } from '../../server/src/blobs/s3/index.js'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import type { Backend } from '../../server/src/store/index.js'
import { openSqliteBackend } from '../../server/src/store/sqlite/backend.js'
import { startS3TestServer, type S3TestServer } from '../helpers/s3-server.js'

// The real service with its content in S3 (on the test server): uploads go through the routes into the bucket,
// downloads come back through botshelf, or, with presigned downloads on, straight from the storage.

let s3: S3TestServer
beforeAll(async () => {
  s3 = await startS3TestServer({ buckets: ['content'] })
})
afterAll(async () => {
  await s3?.stop()
})

interface Running {
  app: BotshelfApp
  blobs: S3BlobStore
  backend: Backend
  call(method: string, path: string, body?: unknown): Promise<any>
  close(): Promise<void>
}

async function startWithS3(presignDownloads: boolean, server: S3TestServer = s3): Promise<Running> {
  const blobs = createS3BlobStore({
    bucket: 'content',
    prefix: `app-${Math.random().toString(36).slice(2)}/`,
    region: server.region,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    presignDownloads,
  })
  if (presignDownloads) await blobs.refreshSigningCredentials()
  const sqlite = await openSqliteBackend({ memory: true })
  const backend: Backend = { ...sqlite, blobs }
  const app = await createApp({ backend, logger: { log: () => undefined } })
  const bot = await app.admin.createBot({ name: 's3-bot' })
  const { token } = await app.admin.createToken({ botId: bot.id, role: 'bot' })
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await app.fetch(
      new Request(`http://botshelf.test${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'x-bot-id': bot.id, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    )
    const json = await response.json()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json
  }
  return {
    app,
    blobs,
    backend,
    call,
    async close() {
      await app.close()
      await sqlite.close()
      blobs.close()
    },
  }
}

async function upload(running: Running, key: string, content: string, extra: Record<string, unknown> = {}): Promise<{ id: string }> {
  const { file } = await running.call('PUT', '/v1/files', { key, size: Buffer.byteLength(content), ...extra })
  const put = await running.app.fetch(new Request(file.uploadUrl, { method: 'PUT', body: content }))
  expect(put.status).toBe(200)
  return file
}

describe('files with their content in S3', () => {
  let running: Running | undefined
  afterEach(async () => {
    await running?.close()
    running = undefined
  })

  it('serves private content through botshelf by default, streamed from the bucket', async () => {
    running = await startWithS3(false)
    const file = await upload(running, 'docs/notes.txt', 'kept in S3')
    const { file: got } = await running.call('GET', `/v1/files/${file.id}`)
    expect(got.status).toBe('upload_completed')
    expect(got.url).toMatch(/^http:\/\/botshelf\.test\/v1\/content\/files\//)
    const download = await running.app.fetch(new Request(got.url))
    expect(await download.text()).toBe('kept in S3')
    const ranged = await running.app.fetch(new Request(got.url, { headers: { range: 'bytes=8-9' } }))
    expect(ranged.status).toBe(206)
    expect(await ranged.text()).toBe('S3')
  })

  it('with presigned downloads, gives private files a presigned S3 URL carrying the type and disposition; public files stay served', async () => {
    running = await startWithS3(true)
    const file = await upload(running, 'docs/report.csv', 'a,b\n1,2\n', { contentType: 'text/csv' })
    const { file: got } = await running.call('GET', `/v1/files/${file.id}`)
    expect(got.url.startsWith(`${s3.endpoint}/content/`)).toBe(true)
    const url = new URL(got.url)
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900')
    const direct = await fetch(got.url)
    expect(direct.status).toBe(200)
    expect(await direct.text()).toBe('a,b\n1,2\n')
    expect(direct.headers.get('content-type')).toBe('text/csv')
    expect(direct.headers.get('content-disposition')).toBe(`attachment; filename="report.csv"; filename*=UTF-8''report.csv`)

    const listed = await running.call('GET', '/v1/files')
    expect(listed.files[0].url.startsWith(s3.endpoint)).toBe(true)

    const publicFile = await upload(running, 'site/logo.txt', 'public bytes', { accessPolicies: ['public_content'] })
    const { file: publicGot } = await running.call('GET', `/v1/files/${publicFile.id}`)
    expect(publicGot.url).toMatch(/^http:\/\/botshelf\.test\/v1\/content\/public\//)
  })

  it('a deleted file takes its content with it: the presigned URL stops working', async () => {
    running = await startWithS3(true)
    const file = await upload(running, 'gone.txt', 'soon gone')
    const { file: got } = await running.call('GET', `/v1/files/${file.id}`)
    expect((await fetch(got.url)).status).toBe(200)
    await running.call('DELETE', `/v1/files/${file.id}`, {})
    expect((await fetch(got.url)).status).toBe(404)
  })

  it('when the storage goes away: an upload answers 500 naming the storage failure and the file records upload_failed; reads answer 500 too', async () => {
    const doomed = await startS3TestServer({ buckets: ['content'] })
    running = await startWithS3(false, doomed)
    const stored = await upload(running, 'before.txt', 'stored before')
    const { file } = await running.call('PUT', '/v1/files', { key: 'during.txt', size: 5 })
    await doomed.stop()
    const put = await running.app.fetch(new Request(file.uploadUrl, { method: 'PUT', body: 'hello' }))
    expect(put.status).toBe(500)
    const body = await put.json()
    expect(body.type).toBe('Internal')
    expect(body.metadata?.code).toBe('BLOB_STORAGE_UNAVAILABLE')
    expect(body.message).toMatch(/^object storage PutObject failed: ECONNREFUSED/)
    const { file: after } = await running.call('GET', `/v1/files/${file.id}`)
    expect(after.status).toBe('upload_failed')
    expect(after.failedStatusReason).toBe('the server could not store the content')
    const { file: before } = await running.call('GET', `/v1/files/${stored.id}`)
    const read = await running.app.fetch(new Request(before.url))
    expect(read.status).toBe(500)
    expect((await read.json()).metadata?.code).toBe('BLOB_STORAGE_UNAVAILABLE')
  })
})
