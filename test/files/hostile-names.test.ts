import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl } from './helpers.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service.close()
})

// Findings 4, 7 and 9 of issue 28 (decision 1464).
describe('names and headers that could deceive a reader or break an answer are refused at upsert', () => {
  it('refuses a content type with CR LF (400 naming contentType); before, every download of the file answered 500', async () => {
    const res = await service.request('PUT', '/v1/files', { body: { key: 'header.txt', size: 2, contentType: 'text/plain\r\nX-Evil: 1' } })
    expect(res.status, res.text).toBe(400)
    expect(res.body.type).toBe('InvalidPayload')
    expect(res.body.message).toContain('contentType')
    expect(res.body.message).toContain('printable ASCII')
    // A clean one is served as given.
    const ok = await service.request('PUT', '/v1/files', { body: { key: 'clean.txt', size: 2, contentType: 'text/plain; charset=utf-8' } })
    expect((await fetchUrl(service, ok.body.file.uploadUrl, { method: 'PUT', body: 'hi' })).status).toBe(200)
    const download = await fetchUrl(service, (await service.request('GET', '/v1/files/clean.txt')).body.file.url)
    expect(download.status).toBe(200)
    expect(download.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('refuses keys with C1 controls or bidirectional overrides, and keys not in NFC, naming the key', async () => {
    for (const key of ['invoice\u202Efdp.exe', 'a\u0085b.txt', 'line\u2028break.txt']) {
      const res = await service.request('PUT', '/v1/files', { body: { key, size: 1 } })
      expect(res.status, key).toBe(400)
      expect(res.body.message).toContain('key')
    }
    const nfd = await service.request('PUT', '/v1/files', { body: { key: 'cafe\u0301.txt', size: 1 } })
    expect(nfd.status).toBe(400)
    expect(nfd.body.message).toContain('NFC')
    expect((await service.request('PUT', '/v1/files', { body: { key: 'caf\u00e9.txt', size: 1 } })).status).toBe(200)
  })

  it('refuses tag values with control characters (an OSC 52 sequence would write a terminal clipboard)', async () => {
    const res = await service.request('PUT', '/v1/files', { body: { key: 'tagged.txt', size: 1, tags: { note: '\u001b]52;c;aGk=\u0007' } } })
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('tags.note')
  })
})

// Finding 6 of issue 28: an upload URL replaced the content of a completed version for its whole hour.
describe('an upload URL is single use once its upload completed', () => {
  it('refuses a second PUT with ResourceGone, and the content and its download URLs stay as they were', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'once.txt', size: 5 } })
    const uploadUrl: string = upsert.body.file.uploadUrl
    expect((await fetchUrl(service, uploadUrl, { method: 'PUT', body: 'first' })).status).toBe(200)
    const url: string = (await service.request('GET', '/v1/files/once.txt')).body.file.url
    const again = await fetchUrl(service, uploadUrl, { method: 'PUT', body: 'evil!' })
    expect(again.status).toBe(410)
    const body = await again.json()
    expect(body.type).toBe('ResourceGone')
    expect(body.message).toBe('This upload URL was already used: version 1 of file "once.txt" is complete; call upsertFile again to replace its content')
    expect(await (await fetchUrl(service, url)).text()).toBe('first')
  })

  it('still takes a retry after a failed upload', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'retry.txt', size: 5 } })
    const uploadUrl: string = upsert.body.file.uploadUrl
    expect((await fetchUrl(service, uploadUrl, { method: 'PUT', body: 'shrt' })).status).toBe(400)
    expect((await fetchUrl(service, uploadUrl, { method: 'PUT', body: 'right' })).status).toBe(200)
  })
})

// Finding 8 of issue 28: content is served on the console's origin, whose CSP allows that origin's scripts.
describe('content is never served to a browser loading it as a script, a style or a worker', () => {
  it('refuses Sec-Fetch-Dest script, style and worker with Forbidden, and serves documents and programs', async () => {
    const upsert = await service.request('PUT', '/v1/files', { body: { key: 'evil.js', size: 9, contentType: 'text/javascript' } })
    expect((await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: 'alert(1);' })).status).toBe(200)
    const url: string = (await service.request('GET', '/v1/files/evil.js')).body.file.url
    for (const destination of ['script', 'style', 'worker', 'serviceworker']) {
      const res = await fetchUrl(service, url, { headers: { 'sec-fetch-dest': destination } })
      expect(res.status, destination).toBe(403)
      expect((await res.json()).message).toBe(`File content is never served as a ${destination} (Sec-Fetch-Dest); download it or open it as a document`)
    }
    const allowed: Array<Record<string, string>> = [{ 'sec-fetch-dest': 'document' }, { 'sec-fetch-dest': 'iframe' }, {}]
    for (const headers of allowed) {
      const res = await fetchUrl(service, url, { headers })
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('alert(1);')
    }
  })
})
