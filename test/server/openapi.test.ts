import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultFeatures } from '../../src/server/app.js'
import { registeredOperations, toHonoPath } from '../../src/server/http/register-operation.js'
import { startTestService, type TestService } from '../helpers/service.js'
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

  it('lists every authenticated route the app registered, with its operation id', async () => {
    const doc = (await service.request<Doc>('GET', '/v1/openapi.json', { token: null, botId: null })).body
    const publicPaths = new Set(features.flatMap((f) => (f.publicRoutes ? f.publicRoutes.routes.map((r) => `${r.method} ${r.path}`) : [])))
    const appRoutes = service.app.hono.routes.filter(
      (r) => r.method !== 'ALL' && r.path.startsWith('/v1/') && r.path !== '/v1/openapi.json' && !publicPaths.has(`${r.method} ${r.path}`),
    )
    expect(appRoutes.length).toBeGreaterThan(0)
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${toHonoPath(path)}`)))
    for (const route of appRoutes) expect(documented, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`)

    const operations = features.flatMap((f) => (f.routes ? registeredOperations(f.routes) : []))
    for (const op of operations) expect(doc.paths[op.path]?.[op.method.toLowerCase()]?.operationId).toBe(op.name)
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
