import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, manualClock, uploadText, type ManualClock } from './helpers.js'

let service: TestService
let clock: ManualClock
beforeEach(async () => {
  clock = manualClock(new Date().toISOString())
  service = await startTestService({ now: clock.now })
})
afterEach(async () => {
  await service.close()
})

async function status(key: string): Promise<any> {
  return (await service.request('GET', `/v1/files/${encodeURIComponent(key)}`)).body.file
}

async function contentFiles(): Promise<{ blobs: string[]; tmp: string[] }> {
  const root = join(service.contentDir, 'files')
  return { blobs: await readdir(join(root, 'blobs')), tmp: await readdir(join(root, 'tmp')) }
}

describe('upload state machine', () => {
  it('upload_pending → upload_completed, with size set and the upload URL needing no token', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'a.txt', size: 5 } })
    expect(upsert.body.file).toMatchObject({ status: 'upload_pending', size: null })
    const put = await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'hello', headers: { 'x-amz-tagging': 'public=true' } })
    expect(put.status).toBe(200)
    expect(await status('a.txt')).toMatchObject({ status: 'upload_completed', size: 5 })
    expect((await contentFiles()).blobs).toHaveLength(1)
  })

  it('more bytes than declared → 413 and upload_failed with a reason; nothing stored', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'big.txt', size: 3 } })
    const put = await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'way too long' })
    expect(put.status).toBe(413)
    expect((await put.json()).type).toBe('PayloadTooLarge')
    const file = await status('big.txt')
    expect(file).toMatchObject({ status: 'upload_failed', size: null })
    expect(file.failedStatusReason).toMatch(/exceeds the size declared in upsertFile \(3 bytes\)/)
    expect(await contentFiles()).toEqual({ blobs: [], tmp: [] })
  })

  it('a streamed body without Content-Length is counted while it arrives and cut off past the declared size', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'stream.bin', size: 4 } })
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++
        if (pulls > 50) controller.close()
        else controller.enqueue(new Uint8Array(3))
      },
    })
    const put = await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body, duplex: 'half' } as RequestInit)
    expect(put.status).toBe(413)
    expect(pulls).toBeLessThan(50)
    expect((await status('stream.bin')).status).toBe('upload_failed')
    expect(await contentFiles()).toEqual({ blobs: [], tmp: [] })
  })

  it('fewer bytes than declared → 400 and upload_failed', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'short.txt', size: 10 } })
    const put = await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'abc' })
    expect(put.status).toBe(400)
    const file = await status('short.txt')
    expect(file.status).toBe('upload_failed')
    expect(file.failedStatusReason).toBe('content has 3 bytes but upsertFile declared 10')
  })

  it('a failed upload can be retried through the same URL', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'retry.txt', size: 2 } })
    expect((await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'abc' })).status).toBe(413)
    expect((await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'ab' })).status).toBe(200)
    expect(await status('retry.txt')).toMatchObject({ status: 'upload_completed', size: 2 })
    expect((await status('retry.txt')).failedStatusReason).toBeUndefined()
  })

  it('accepts an empty file', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'empty.txt', size: 0 } })
    expect((await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT' })).status).toBe(200)
    const file = await status('empty.txt')
    expect(file).toMatchObject({ status: 'upload_completed', size: 0 })
    expect(await (await fetchUrl(service, file.url)).text()).toBe('')
  })

  it('re-upserting starts a new version: old content readable until the new upload completes, then switched', async () => {
    const first = await uploadText(service, 'v.txt', 'version one')
    const again = await service.request('PUT', '/v1/files', { body: { key: 'v.txt', size: 11, tags: { v: '2' } } })
    expect(again.body.file).toMatchObject({ id: first.file.id, status: 'upload_pending', tags: { v: '2' } })
    const during = await status('v.txt')
    expect(await (await fetchUrl(service, during.url)).text()).toBe('version one')
    expect((await fetchUrl(service, first.file.uploadUrl, { method: 'PUT', body: 'version one' })).status).toBe(410)
    expect((await fetchUrl(service, again.body.file.uploadUrl, { method: 'PUT', body: 'version two' })).status).toBe(200)
    const after = await status('v.txt')
    expect(after).toMatchObject({ status: 'upload_completed', size: 11 })
    expect(await (await fetchUrl(service, after.url)).text()).toBe('version two')
    expect(await (await fetchUrl(service, again.body.file.url)).text()).toBe('version two')
    expect((await fetchUrl(service, during.url)).status).toBe(200)
    expect((await contentFiles()).blobs).toHaveLength(1)
  })

  it('two concurrent PUTs of one version leave exactly one complete content and no stray blob', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'race.txt', size: 5 } })
    const url: string = upsert.body.file.uploadUrl
    const results = await Promise.all([
      fetchUrl(service, url, { method: 'PUT', body: 'aaaaa' }),
      fetchUrl(service, url, { method: 'PUT', body: 'bbbbb' }),
    ])
    expect(results.map((r) => r.status)).toEqual([200, 200])
    const file = await status('race.txt')
    expect(['aaaaa', 'bbbbb']).toContain(await (await fetchUrl(service, file.url)).text())
    expect(await contentFiles()).toEqual({ blobs: [expect.any(String)], tmp: [] })
  })

  it('an upload that finishes after a newer upsert is refused with 410 and its content discarded', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'slow.txt', size: 6 } })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let step = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        step++
        if (step === 1) controller.enqueue(new TextEncoder().encode('abc'))
        else if (step === 2) {
          await gate
          controller.enqueue(new TextEncoder().encode('def'))
        } else controller.close()
      },
    })
    const pending = fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body, duplex: 'half' } as RequestInit)
    // The service is writing the first bytes (its temporary file exists) when the newer upsert comes.
    await eventually(async () => ((await contentFiles()).tmp.length === 1 ? true : undefined), 'the upload under way')
    const newer = await service.request('PUT', '/v1/files', { body: { key: 'slow.txt', size: 3 } })
    expect(newer.body.file.status).toBe('upload_pending')
    release()
    const res = await pending
    expect(res.status).toBe(410)
    expect(await status('slow.txt')).toMatchObject({ status: 'upload_pending', size: null })
    expect(await contentFiles()).toEqual({ blobs: [], tmp: [] })
  })

  it('refuses an altered upload URL and an expired one', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'x.txt', size: 1 } })
    const url: string = upsert.body.file.uploadUrl
    const altered = await fetchUrl(service, url.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')), { method: 'PUT', body: 'x' })
    expect(altered.status).toBe(403)
    const asDownload = await fetchUrl(service, url.replace('/upload/', '/files/'))
    expect(asDownload.status).toBe(403)
    clock.advance(3600 * 1000 + 1000)
    const expired = await fetchUrl(service, url, { method: 'PUT', body: 'x' })
    expect(expired.status).toBe(403)
    expect((await expired.json()).message).toMatch(/expired/)
    expect((await status('x.txt')).status).toBe('upload_pending')
  })

  it('an upload URL of a deleted file answers 404', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'd.txt', size: 1 } })
    await service.request('DELETE', '/v1/files/d.txt')
    expect((await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'x' })).status).toBe(404)
    expect(await contentFiles()).toEqual({ blobs: [], tmp: [] })
  })
})

describe('startup sweep', () => {
  it('removes temporary files and unreferenced blobs left by a crash, keeps referenced content', async () => {
    // A restart of a data folder: file-backed SQLite whatever backend the run targets.
    const first = await startTestService({ backend: 'sqlite', now: clock.now })
    await uploadText(first, 'keep.txt', 'keep me')
    const root = join(first.contentDir, 'files')
    const { writeFile, utimes } = await import('node:fs/promises')
    const old = new Date(Date.now() - 3_600_000)
    await writeFile(join(root, 'tmp', 'blob_crashed.partial'), 'half')
    await writeFile(join(root, 'blobs', 'blob_0123456789abcdef0123456789abcdef'), 'orphan')
    await utimes(join(root, 'tmp', 'blob_crashed.partial'), old, old)
    await utimes(join(root, 'blobs', 'blob_0123456789abcdef0123456789abcdef'), old, old)
    const dataDir = first.dataDir
    await first.app.close()
    await first.backend.close()
    const restarted = await startTestService({ dataDir })
    await restarted.app.close()
    await restarted.backend.close()
    const after = { blobs: await readdir(join(root, 'blobs')), tmp: await readdir(join(root, 'tmp')) }
    expect(after.tmp).toEqual([])
    expect(after.blobs).toHaveLength(1)
    expect(after.blobs).not.toContain('blob_0123456789abcdef0123456789abcdef')
    const reopened = await startTestService({ dataDir })
    // Both bots were created at the same fake instant, so ask for the original bot explicitly.
    const token = (await reopened.app.admin.createToken({ botId: first.botId, role: 'bot' })).token
    const got = await reopened.request('GET', '/v1/files/keep.txt', { token, botId: first.botId })
    const file = got.body.file
    expect(await (await fetchUrl(reopened, file.url)).text()).toBe('keep me')
    await reopened.close()
    await first.close()
  })
})
