import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, manualClock, uploadText, type ManualClock } from './helpers.js'

// A start 250 ms into a second, so "the expiry second" and "the second before it" are not the issue instant.
const START = '2026-11-22T00:00:00.250Z'
const startMs = Date.parse(START)
const startSecond = Math.floor(startMs / 1000)

let service: TestService
let clock: ManualClock
beforeEach(async () => {
  clock = manualClock(START)
  service = await startTestService({ now: clock.now })
})
afterEach(async () => {
  await service.close()
})

/** Moves the manual clock to an absolute instant (ms since the epoch). */
function setClock(ms: number): void {
  clock.advance(ms - clock.now().getTime())
}

describe('signed URLs expire at their expiry second, not one second later', () => {
  it('a private content URL works until the last millisecond before its expiry second and is refused from that second on', async () => {
    // Private URLs live 900 s (defaultUrlLifetimes.downloadSeconds), counted in whole epoch seconds from the issue.
    const { file } = await uploadText(service, 'boundary.txt', 'on time')
    const url: string = (await service.request('GET', '/v1/files/boundary.txt')).body.file.url
    const expirySecond = startSecond + 900
    expect(new URL(url).pathname).toBe(`/v1/content/files/${file.id}`)

    setClock(expirySecond * 1000 - 1)
    const last = await fetchUrl(service, url)
    expect(last.status).toBe(200)
    expect(await last.text()).toBe('on time')

    setClock(expirySecond * 1000)
    const first = await fetchUrl(service, url)
    expect(first.status).toBe(403)
    const body = await first.json()
    expect(body.type).toBe('Forbidden')
    expect(body.message).toBe(`This content URL expired at ${new Date(expirySecond * 1000).toISOString()}; getFile returns a fresh one`)
  })

  it('an upload URL is accepted until the last millisecond before its expiry second and refused from that second on', async () => {
    // Upload URLs live 3600 s (defaultUrlLifetimes.uploadSeconds).
    const late = await service.request('PUT', '/v1/files', { body: { key: 'late.txt', size: 4 } })
    const onTime = await service.request('PUT', '/v1/files', { body: { key: 'on-time.txt', size: 4 } })
    const expirySecond = startSecond + 3600

    setClock(expirySecond * 1000 - 1)
    expect((await fetchUrl(service, onTime.body.file.uploadUrl, { method: 'PUT', body: 'done' })).status).toBe(200)

    setClock(expirySecond * 1000)
    const refused = await fetchUrl(service, late.body.file.uploadUrl, { method: 'PUT', body: 'late' })
    expect(refused.status).toBe(403)
    expect((await refused.json()).message).toBe(`This upload URL expired at ${new Date(expirySecond * 1000).toISOString()}; call upsertFile again for a new one`)
    expect((await service.request('GET', '/v1/files/late.txt')).body.file.status).toBe('upload_pending')
    expect((await service.request('GET', '/v1/files/on-time.txt')).body.file.status).toBe('upload_completed')
  })
})
