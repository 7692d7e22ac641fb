import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, uploadText } from '../files/helpers.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService({ listen: true })
})
afterAll(async () => {
  await service.close()
})

// Finding 9 of issue 28 (decision 1464): API answers, the one with a new token's secret included, had neither.
describe('every API answer says no-store and nosniff; content keeps its own headers', () => {
  it('on answers, errors and the new token answer, through Hono and through the direct lane', async () => {
    await uploadText(service, 'hot.txt', 'hot')
    const answers = [
      await service.request('GET', '/v1/files'),
      await service.request('GET', '/v1/files/hot.txt'), // a plain GET of getFile: the direct lane
      await service.request('GET', '/v1/files/missing.txt'),
      await service.request('POST', '/v1/tables', { body: { name: 'bad name' } }),
      await service.request('GET', '/v1/files', { token: null }),
      await service.request('POST', '/v1/admin/tokens', { token: 'administrator', body: { role: 'bot', botId: service.botId } }),
      await service.request('GET', '/health'),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 400, 401, expect.any(Number), 200])
    for (const answer of answers) {
      expect(answer.headers.get('cache-control'), answer.text).toBe('no-store')
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })

  it('leaves content downloads to their own cache rules', async () => {
    const url: string = (await service.request('GET', '/v1/files/hot.txt')).body.file.url
    const download = await fetchUrl(service, url)
    expect(download.status).toBe(200)
    expect(download.headers.get('cache-control')).not.toBe('no-store')
    expect(download.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
