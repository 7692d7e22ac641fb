import type { TestCaller, TestService } from '../helpers/service.js'

/** A clock tests move by hand; handed to the app as `now`. */
export interface ManualClock {
  now: () => Date
  advance(ms: number): void
}

/**
 * A manual clock starting at a fixed instant.
 *
 * @example
 * ```ts
 * const clock = manualClock(); clock.advance(60_000)
 * ```
 */
export function manualClock(start = '2026-11-22T00:00:00.000Z'): ManualClock {
  let current = Date.parse(start)
  return { now: () => new Date(current), advance: (ms) => void (current += ms) }
}

/**
 * Upserts a file and PUTs its content through the signed upload URL; returns the upsert answer and the PUT status.
 *
 * @example
 * ```ts
 * const { file } = await uploadText(service, 'a.txt', 'hello')
 * ```
 */
export async function uploadText(
  service: TestService,
  key: string,
  content: string,
  extra: Record<string, unknown> = {},
  caller: TestCaller = 'bot',
): Promise<{ file: any; putStatus: number }> {
  const bytes = new TextEncoder().encode(content)
  const upsert = await service.request('PUT', '/v1/files', { token: caller, body: { key, size: bytes.byteLength, ...extra } })
  if (upsert.status !== 200) throw new Error(`upsert ${key} failed: ${upsert.status} ${upsert.text}`)
  const put = await fetchUrl(service, upsert.body.file.uploadUrl, { method: 'PUT', body: bytes })
  return { file: upsert.body.file, putStatus: put.status }
}

/**
 * Fetches an absolute URL the service handed out (upload or content URL), with no credentials, through the
 * app in process or over the port.
 *
 * @example
 * ```ts
 * const res = await fetchUrl(service, file.url, { headers: { range: 'bytes=0-1' } })
 * ```
 */
export async function fetchUrl(service: TestService, url: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(url, init)
  return service.url.startsWith('http://botshelf.test') ? service.app.fetch(request) : fetch(request)
}
