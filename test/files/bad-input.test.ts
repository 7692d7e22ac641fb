import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBodySchema } from '../../src/api/index.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl, uploadText } from './helpers.js'

let service: TestService
beforeAll(async () => {
  service = await startTestService()
  await uploadText(service, 'exists.txt', 'x')
})
afterAll(async () => {
  await service.close()
})

const rawPaths = [
  ['GET', '/v1/files?pageSize=abc'],
  ['GET', '/v1/files?pageSize=-1'],
  ['GET', '/v1/files?sortDirection=up'],
  ['GET', '/v1/files?tags=notjson'],
  ['GET', '/v1/files?tags=%7B%22k%22%3A5%7D'],
  ['GET', '/v1/files?tags.k.like=x'],
  ['GET', '/v1/files?tags.k.exists=maybe'],
  ['GET', '/v1/files?tags[0]=x'],
  ['GET', '/v1/files?ids.a=b'],
  ['GET', '/v1/files?indexed=yes'],
  ['GET', '/v1/files?nextToken=%00%01'],
  ['GET', '/v1/files?nextToken=a.b.c'],
  ['GET', '/v1/files/tags?nextToken=eyJ9.x'],
  ['GET', '/v1/files/tags/k/values?pageSize=0'],
  ['GET', '/v1/files/%E0%A4%A'],
  ['GET', '/v1/files/a%00b'],
  ['GET', '/v1/files/search'],
  ['GET', '/v1/files/search?query=x&limit=51'],
  ['GET', '/v1/files/knowledge-bases?pageSize=1000'],
  ['DELETE', '/v1/files/knowledge-bases/nope'],
  ['PUT', '/v1/files/knowledge-bases/nope'],
] as const

const badBodies: Array<[string, string, string]> = [
  ['PUT', '/v1/files', '{not json'],
  ['PUT', '/v1/files', '[]'],
  ['PUT', '/v1/files', 'null'],
  ['PUT', '/v1/files', '{"key":5,"size":"big"}'],
  ['PUT', '/v1/files', '{"key":"a","size":1.5}'],
  ['PUT', '/v1/files', '{"key":"a","size":-1}'],
  ['PUT', '/v1/files', '{"key":"","size":1}'],
  ['PUT', '/v1/files', '{"key":"a","size":1,"accessPolicies":["everyone"]}'],
  ['PUT', '/v1/files', '{"key":"a","size":1,"tags":{"":"v"}}'],
  ['PUT', '/v1/files', '{"key":"a","size":1,"tags":{"k":5}}'],
  ['PUT', '/v1/files', '{"key":"a","size":1,"metadata":[1]}'],
  ['PUT', '/v1/files', '{"key":"a","size":1,"indexing":{"configuration":{"chunking":{"maximumChunkLength":1}}}}'],
  ['PUT', '/v1/files/exists.txt', '{"expiresAt":"2020-01-01T00:00:00Z"}'],
  ['PUT', '/v1/files/exists.txt', '{"accessPolicies":"public_content"}'],
  ['PUT', '/v1/files/exists.txt', '{"tags":{"k":{"nested":true}}}'],
  ['POST', '/v1/files/exists.txt/copy.txt', '{"overwrite":"yes"}'],
  ['POST', '/v1/files/exists.txt/%01bad', '{}'],
  ['PUT', '/v1/files/exists.txt/passages', '{"passages":[{"content":1}]}'],
  ['POST', '/v1/files/knowledge-bases', '{"name":""}'],
  ['POST', '/v1/files/knowledge-bases', '{"name":"a","extra":1}'],
]

describe('bad input never gives a 500', () => {
  it.each(rawPaths)('%s %s → a 4xx wire error', async (method, path) => {
    const res = await service.request(method, path, method === 'PUT' ? { body: { name: 'x' } } : {})
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(ErrorBodySchema.parse(res.body).code).toBe(res.status)
  })

  it.each(badBodies)('%s %s %s → 400 naming the problem', async (method, path, body) => {
    const res = await service.request(method, path, { body, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(ErrorBodySchema.parse(res.body).message.length).toBeGreaterThan(10)
  })

  it('garbage content URLs are 4xx, not 500', async () => {
    for (const path of ['/v1/content/files/x', '/v1/content/files/a.b', '/v1/content/public/%ff', '/v1/content/public/e30.sig']) {
      const res = await fetchUrl(service, `http://botshelf.test${path}`)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
    }
    const put = await fetchUrl(service, 'http://botshelf.test/v1/content/upload/e30.abc', { method: 'PUT', body: 'x' })
    expect(put.status).toBe(403)
  })
})
