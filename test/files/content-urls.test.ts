import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFilesFeature } from '../../server/src/files/index.js'
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

describe('private content URLs', () => {
  it('are signed, work without a token, and expire after 15 minutes (fresh ones from getFile)', async () => {
    const { file } = await uploadText(service, 'p.txt', 'private')
    const url: string = (await service.request('GET', '/v1/files/p.txt')).body.file.url
    expect(url).toMatch(/^http:\/\/botshelf\.test\/v1\/content\/files\/file_\w+\?token=[\w-]+\.[\w-]+$/)
    expect(await (await fetchUrl(service, url)).text()).toBe('private')
    clock.advance(14 * 60 * 1000)
    expect((await fetchUrl(service, url)).status).toBe(200)
    clock.advance(2 * 60 * 1000)
    const expired = await fetchUrl(service, url)
    expect(expired.status).toBe(403)
    expect((await expired.json()).message).toMatch(/expired/)
    const logged = JSON.stringify(service.logs)
    expect(logged).toContain('/v1/content/files/')
    expect(logged).not.toContain(url.split('?token=')[1]!)
    const fresh = (await service.request('GET', `/v1/files/${file.id}`)).body.file.url
    expect(fresh).not.toBe(url)
    expect((await fetchUrl(service, fresh)).status).toBe(200)
  })

  it('are bound to the version: a URL minted before a newer upload completed answers 410', async () => {
    await uploadText(service, 'v.txt', 'one')
    const oldUrl: string = (await service.request('GET', '/v1/files/v.txt')).body.file.url
    await uploadText(service, 'v.txt', 'two')
    expect((await fetchUrl(service, oldUrl)).status).toBe(410)
    const newUrl: string = (await service.request('GET', '/v1/files/v.txt')).body.file.url
    expect(await (await fetchUrl(service, newUrl)).text()).toBe('two')
  })

  it('refuse an altered token and say 404 before any content exists', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'later.txt', size: 3 } })
    const url: string = upsert.body.file.url
    expect((await fetchUrl(service, url)).status).toBe(404)
    const [base, sig] = url.split('?token=')[1]!.split('.') as [string, string]
    const path = url.split('?')[0]!
    const forgedBody = Buffer.from(JSON.stringify({ f: upsert.body.file.id, v: 99, e: 9_999_999_999 })).toString('base64url')
    expect((await fetchUrl(service, `${path}?token=${forgedBody}.${sig}`)).status).toBe(403)
    expect((await fetchUrl(service, `${path}?token=${base}.${sig.slice(1)}`)).status).toBe(403)
    expect((await fetchUrl(service, path)).status).toBe(403)
    const otherFile = (await service.request('PUT', '/v1/files', { body: { key: 'other.txt', size: 1 } })).body.file
    expect((await fetchUrl(service, url.replace(upsert.body.file.id, otherFile.id))).status).toBe(403)
  })

  it('honour a shorter configured lifetime', async () => {
    await service.close()
    service = await startTestService({ now: clock.now, features: [createFilesFeature({ urls: { uploadSeconds: 60, downloadSeconds: 30 } })] })
    const { file } = await uploadText(service, 'short.txt', 'x')
    clock.advance(31_000)
    expect((await fetchUrl(service, file.url)).status).toBe(403)
  })
})

describe('public content URLs', () => {
  it('are permanent and unique per file, serve content only, and stop working when the policy is removed', async () => {
    const a = await uploadText(service, 'a.txt', 'public a', { accessPolicies: ['public_content'] })
    const b = await uploadText(service, 'b.txt', 'public b', { accessPolicies: ['public_content'] })
    const urlA: string = (await service.request('GET', '/v1/files/a.txt')).body.file.url
    expect(urlA).toMatch(/\/v1\/content\/public\//)
    expect(urlA).toBe(a.file.url)
    expect(urlA).not.toBe(b.file.url)
    clock.advance(30 * 86_400_000)
    const res = await fetchUrl(service, urlA)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('public a')
    expect(res.headers.get('content-disposition')).toBe('inline')
    expect(res.headers.get('content-disposition')).not.toContain('a.txt')
    expect((await service.request('GET', '/v1/files/a.txt')).body.file.url).toBe(urlA)
    await service.request('PUT', '/v1/files/a.txt', { body: { accessPolicies: [] } })
    expect((await fetchUrl(service, urlA)).status).toBe(404)
    const privateUrl: string = (await service.request('GET', '/v1/files/a.txt')).body.file.url
    expect(privateUrl).toMatch(/\/v1\/content\/files\//)
    await service.request('PUT', '/v1/files/a.txt', { body: { accessPolicies: ['public_content'] } })
    expect((await fetchUrl(service, urlA)).status).toBe(200)
  })

  it('serve the newest content after a new version completes', async () => {
    const first = await uploadText(service, 'p.txt', 'one', { accessPolicies: ['public_content'] })
    await uploadText(service, 'p.txt', 'two', { accessPolicies: ['public_content'] })
    expect(await (await fetchUrl(service, first.file.url)).text()).toBe('two')
  })
})

describe('downloads', () => {
  it('support Range (206, suffix, open-ended) and answer 416 outside the content', async () => {
    const { file } = await uploadText(service, 'r.txt', '0123456789')
    const part = await fetchUrl(service, file.url, { headers: { range: 'bytes=2-4' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 2-4/10')
    expect(part.headers.get('content-length')).toBe('3')
    expect(await part.text()).toBe('234')
    expect(await (await fetchUrl(service, file.url, { headers: { range: 'bytes=-3' } })).text()).toBe('789')
    expect(await (await fetchUrl(service, file.url, { headers: { range: 'bytes=7-' } })).text()).toBe('789')
    const outside = await fetchUrl(service, file.url, { headers: { range: 'bytes=10-20' } })
    expect(outside.status).toBe(416)
    expect(outside.headers.get('content-range')).toBe('bytes */10')
    expect(outside.headers.get('x-request-id')).toMatch(/^req_/)
    expect(await outside.json()).toMatchObject({ code: 416, type: 'InvalidPayload', message: 'range: expected a byte range that starts inside the content of 10 bytes, received "bytes=10-20"', metadata: { size: 10 } })
    const etag = (await fetchUrl(service, file.url, { method: 'HEAD' })).headers.get('etag')!
    expect((await fetchUrl(service, file.url, { headers: { range: 'bytes=0-1', 'if-range': etag } })).status).toBe(206)
    const stale = await fetchUrl(service, file.url, { headers: { range: 'bytes=0-1', 'if-range': '"older"' } })
    expect(stale.status).toBe(200)
    expect(await stale.text()).toBe('0123456789')
    const whole = await fetchUrl(service, file.url)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('content-length')).toBe('10')
  })

  it('answer HEAD with the headers and no body', async () => {
    const { file } = await uploadText(service, 'h.txt', 'hello')
    const head = await fetchUrl(service, file.url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe('5')
    expect(head.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/)
    expect(await head.text()).toBe('')
  })

  it('send an ETag (the sha256) and answer 304 to If-None-Match', async () => {
    const { file } = await uploadText(service, 'e.txt', 'hello')
    const first = await fetchUrl(service, file.url)
    const etag = first.headers.get('etag')
    expect(etag).toBe('"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"')
    const again = await fetchUrl(service, file.url, { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect((await fetchUrl(service, file.url, { headers: { 'if-none-match': '"other"' } })).status).toBe(200)
  })

  it.each([
    ['page.html', 'text/html', 'attachment'],
    ['logo.svg', 'image/svg+xml', 'attachment'],
    ['data.json', 'application/json', 'attachment'],
    ['photo.png', 'image/png', 'inline'],
    ['notes.txt', 'text/plain', 'inline'],
  ])('serve %s (%s) safely as %s', async (key, type, disposition) => {
    const { file } = await uploadText(service, key, '<svg onload="alert(1)"></svg>')
    const res = await fetchUrl(service, file.url)
    expect(res.headers.get('content-type')).toBe(type)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain('sandbox')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition}; filename="${key.replace('.', '\\.')}"`))
  })

  it('never serve HTML inline even when the uploader declares a safe-looking type with parameters', async () => {
    const { file } = await uploadText(service, 'x.bin', '<script>', { contentType: 'text/html; charset=utf-8' })
    expect((await fetchUrl(service, file.url)).headers.get('content-disposition')).toMatch(/^attachment/)
  })
})
