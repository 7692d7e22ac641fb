import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultFeatures } from '../../server/src/http/app.js'
import { registeredOperations, toHonoPath } from '../../server/src/http/register-operation.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { fetchUrl } from '../files/helpers.js'
import { echoFeature } from './fixtures/echo-feature.js'

const features = [...defaultFeatures, echoFeature]
let service: TestService
beforeAll(async () => {
  service = await startTestService({ features })
})
afterAll(async () => {
  await service.close()
})

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, unknown> } }

describe('GET /v1/openapi.json', () => {
  it('is served without auth', async () => {
    const res = await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.1.0')
  })

  it('lists every route the app serves (operations, signed content URLs, meta routes), unauthenticated GETs with HEAD', async () => {
    const doc = (await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })).body
    const appRoutes = service.app.hono.routes.filter((r) => r.method !== 'ALL')
    expect(appRoutes.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/health', '/v1/openapi.json']))
    const contentRoutes = appRoutes.filter((r) => r.path.startsWith('/v1/content/'))
    expect(contentRoutes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /v1/content/files/:fileId',
      'GET /v1/content/public/:fileId',
      'PUT /v1/content/upload/:fileId',
    ])
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${toHonoPath(path)}`)))
    for (const route of appRoutes) expect(documented, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`)
    for (const path of ['/', '/health', '/v1/openapi.json']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await service.request(method, path, { token: null, botId: null })
        expect(doc.paths[path]![method.toLowerCase()].responses[String(res.status)], `${method} ${path} ${res.status}`).toBeDefined()
      }
    }
    for (const path of ['/', '/health', '/v1/openapi.json', ...contentRoutes.filter((r) => r.method === 'GET').map((r) => r.path)]) {
      expect(documented).toContain(`HEAD ${path}`)
      expect(doc.paths[path.replace(/:(\w+)/g, '{$1}')]!.get.security).toEqual([])
    }

    const operations = features.flatMap((f) => (f.routes ? registeredOperations(f.routes) : []))
    for (const op of operations) expect(doc.paths[op.path]?.[op.method.toLowerCase()]?.operationId).toBe(op.name)
  })

  it('documents the content routes as raw bytes with the signed token and no bearer token', async () => {
    const doc = (await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })).body
    const upload = doc.paths['/v1/content/upload/{fileId}']!.put
    expect(upload.security).toEqual([])
    expect(upload.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'fileId', in: 'path', required: true }),
        expect.objectContaining({ name: 'token', in: 'query', required: true }),
        expect.objectContaining({ name: 'Content-Length', in: 'header' }),
        expect.objectContaining({ name: 'Content-Type', in: 'header' }),
      ]),
    )
    expect(Object.keys(upload.requestBody.content)).toEqual(['*/*'])
    expect(upload.parameters.map((p: { name: string }) => p.name)).not.toContain('x-bot-id')
    expect(upload.responses['413'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    for (const path of ['/v1/content/files/{fileId}', '/v1/content/public/{fileId}']) {
      const get = doc.paths[path]!.get
      const head = doc.paths[path]!.head
      expect(get.security).toEqual([])
      expect(head.security).toEqual([])
      expect(get.responses['206'].headers).toHaveProperty('Content-Range')
      expect(get.responses['200'].content).toHaveProperty(['*/*'])
      expect(head.responses['200'].content).toBeUndefined()
      expect(head.operationId).not.toBe(get.operationId)
    }
    // Operations keep the document-wide bearer requirement.
    expect(doc.paths['/v1/files']!.put.security).toBeUndefined()
  })

  it('lists every status the content routes answered in real requests', async () => {
    const doc = (await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })).body
    const seen: Array<{ method: string; path: string; status: number; response: Response }> = []
    const call = async (url: string, init: RequestInit = {}): Promise<Response> => {
      const response = await fetchUrl(service, url, init)
      const template = new URL(url).pathname.replace(/^(\/v1\/content\/(?:upload|files|public))\/[^/]+$/, '$1/{fileId}')
      seen.push({ method: (init.method ?? 'GET').toLowerCase(), path: template, status: response.status, response })
      return response
    }
    const upsert = (key: string, size: number, extra: Record<string, unknown> = {}) =>
      service.request('PUT', '/v1/files', { body: { key, size, ...extra } }).then((r) => r.body.file)

    const file = await upsert('doc.txt', 10)
    expect((await call(file.uploadUrl, { method: 'PUT', body: '0123', headers: { 'content-type': 'text/plain' } })).status).toBe(400)
    const again = await upsert('doc.txt', 10)
    expect((await call(again.uploadUrl, { method: 'PUT', body: '0123456789' })).status).toBe(200)
    expect((await call(file.uploadUrl, { method: 'PUT', body: '0123456789' })).status).toBe(410)
    const big = await upsert('big.txt', 2)
    expect((await call(big.uploadUrl, { method: 'PUT', body: 'too long' })).status).toBe(413)
    expect((await call(big.uploadUrl.replace(/token=[^&]+/, 'token=forged'), { method: 'PUT', body: 'ab' })).status).toBe(403)
    const deleted = await upsert('gone.txt', 1)
    await service.request('DELETE', `/v1/files/${deleted.id}`)
    expect((await call(deleted.uploadUrl, { method: 'PUT', body: 'x' })).status).toBe(404)

    const url = (await service.request('GET', '/v1/files/doc.txt')).body.file.url as string
    expect((await call(url)).status).toBe(200)
    expect((await call(url, { method: 'HEAD' })).status).toBe(200)
    const partial = await call(url, { headers: { range: 'bytes=2-5' } })
    expect(partial.status).toBe(206)
    expect(partial.headers.get('content-range')).toBe('bytes 2-5/10')
    expect((await call(url, { method: 'HEAD', headers: { range: 'bytes=-3' } })).status).toBe(206)
    const etag = partial.headers.get('etag')!
    expect((await call(url, { headers: { 'if-none-match': etag } })).status).toBe(304)
    expect((await call(url, { headers: { range: 'bytes=99-' } })).status).toBe(416)
    expect((await call(url.replace(/token=[^&]+/, 'token=forged'))).status).toBe(403)
    const replaced = await upsert('doc.txt', 3)
    await call(replaced.uploadUrl, { method: 'PUT', body: 'new' })
    expect((await call(url)).status).toBe(410)

    const pub = await upsert('pub.txt', 5, { accessPolicies: ['public_content'] })
    await call(pub.uploadUrl, { method: 'PUT', body: 'hello' })
    const publicUrl = (await service.request('GET', '/v1/files/pub.txt')).body.file.url as string
    expect(new URL(publicUrl).pathname).toMatch(/^\/v1\/content\/public\//)
    expect((await call(publicUrl, { headers: { range: 'bytes=0-0' } })).status).toBe(206)
    expect((await call(publicUrl)).status).toBe(200)
    expect((await call(publicUrl.replace(/token=[^&]+/, 'token=forged'))).status).toBe(404)

    expect(new Set(seen.map((s) => s.status))).toEqual(new Set([200, 206, 304, 400, 403, 404, 410, 413, 416]))
    for (const { method, path, status, response } of seen) {
      const documented = doc.paths[path]?.[method]?.responses?.[String(status)]
      expect(documented, `${method.toUpperCase()} ${path} answered ${status}`).toBeDefined()
      for (const header of Object.keys(documented.headers ?? {})) {
        if (header === 'Content-Range') expect(response.headers.has(header), `${status} ${header}`).toBe(true)
      }
      if (documented.content?.['application/json']?.schema?.$ref === '#/components/schemas/Error') {
        expect((await response.json()).type, `${method} ${path} ${status}`).toEqual(expect.any(String))
      } else if (!response.bodyUsed) {
        await response.arrayBuffer() // close the streamed content
      }
    }
  })

  it('describes bodies, parameters and errors with the same rules the server enforces', async () => {
    const doc = (await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })).body
    const echo = doc.paths['/v1/echo/{id}']!.post
    const ajv = new Ajv2020({ strict: false })
    const body = ajv.compile(echo.requestBody.content['application/json'].schema)
    expect(body({ name: 'n' })).toBe(true)
    expect(body({ name: 42 })).toBe(false)
    expect(body({ name: 'n', extra: 1 })).toBe(false)
    expect(echo.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
        expect.objectContaining({ name: 'ids', in: 'query', required: false, style: 'form', explode: true }),
        expect.objectContaining({ name: 'x-bot-id', in: 'header', required: true }),
        expect.objectContaining({ name: 'x-destination-bot-id', in: 'header', required: false }),
      ]),
    )
    const error = ajv.compile(doc.components.schemas.Error as object)
    const wrong = await service.request('POST', '/v1/echo/a', { body: { name: 42 } })
    expect(error(wrong.body)).toBe(true)
  })
})
