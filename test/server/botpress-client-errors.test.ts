import { createRequire } from 'node:module'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

const botpress = createRequire(import.meta.url)('@botpress/client') as typeof import('@botpress/client')
let service: TestService
beforeAll(async () => {
  service = await startTestService({ listen: true, features: [] })
})
afterAll(async () => {
  await service.close()
})

describe('@botpress/client reads the shell error bodies as its own error classes', () => {
  it('maps an unknown route to ResourceNotFoundError', async () => {
    const client = service.botpressClient('bot')
    const error = await client.getFile({ id: 'nothing' }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ type: 'ResourceNotFound', code: 404, id: expect.stringMatching(/^err_/) })
    expect(error).toBeInstanceOf(botpress.ResourceNotFoundError)
  })

  it('maps a token bound to another bot to ForbiddenError', async () => {
    const client = new botpress.Client({ apiUrl: service.url, token: service.tokens.otherBot, botId: service.botId })
    const error = await client.listFiles({}).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ type: 'Forbidden', code: 403 })
    expect(error).toBeInstanceOf(botpress.ForbiddenError)
  })

  it('maps an unknown token to UnauthorizedError', async () => {
    const client = new botpress.Client({ apiUrl: service.url, token: 'bs_wrong', botId: service.botId })
    const error = await client.listFiles({}).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ type: 'Unauthorized', code: 401 })
    expect(error).toBeInstanceOf(botpress.UnauthorizedError)
  })
})
