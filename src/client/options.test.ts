import { afterEach, describe, expect, it, vi } from 'vitest'
import { Client } from './client.js'
import { DEFAULT_API_URL, resolveClientConfig } from './options.js'

afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

describe('client options', () => {
  it('uses the local botshelf address when no apiUrl is given', () => {
    vi.stubEnv('BP_API_URL', '')
    expect(new Client({ token: 't' }).config.apiUrl).toBe(DEFAULT_API_URL)
  })

  it('falls back to BP_* environment variables', () => {
    vi.stubEnv('BP_API_URL', 'http://files.example.com/')
    vi.stubEnv('BP_TOKEN', 'env-token')
    vi.stubEnv('BP_BOT_ID', 'env-bot')
    vi.stubEnv('BP_INTEGRATION_ID', 'env-intg')
    const config = resolveClientConfig()
    expect(config).toMatchObject({
      apiUrl: 'http://files.example.com',
      token: 'env-token',
      botId: 'env-bot',
      integrationId: 'env-intg',
    })
  })

  it('prefers explicit options over the environment', () => {
    vi.stubEnv('BP_TOKEN', 'env-token')
    vi.stubEnv('BP_BOT_ID', 'env-bot')
    const config = resolveClientConfig({ token: 'opt-token', botId: 'opt-bot' })
    expect(config.token).toBe('opt-token')
    expect(config.botId).toBe('opt-bot')
  })

  it('does not crash where process does not exist', () => {
    vi.stubGlobal('process', undefined)
    const config = resolveClientConfig({ token: 't' })
    expect(config.botId).toBeUndefined()
    expect(config.apiUrl).toBe(DEFAULT_API_URL)
  })

  it('rejects a non-positive timeout with a message naming the field', () => {
    expect(() => resolveClientConfig({ timeout: 0 })).toThrow(/timeout: expected a positive number/)
  })
})

describe('client headers', () => {
  it('sends bearer token, bot id and integration id, with custom headers merged last whatever their case', () => {
    const config = resolveClientConfig({
      token: 'tok',
      botId: 'bot1',
      integrationId: 'intg1',
      headers: { 'X-Bot-Id': 'override', 'X-Extra': 'yes' },
    })
    expect(config.headers).toEqual({
      authorization: 'bearer tok',
      'x-bot-id': 'override',
      'x-integration-id': 'intg1',
      'x-extra': 'yes',
    })
  })

  it('omits headers whose value is not set', () => {
    vi.stubEnv('BP_TOKEN', '')
    vi.stubEnv('BP_BOT_ID', '')
    vi.stubEnv('BP_INTEGRATION_ID', '')
    expect(resolveClientConfig({}).headers).toEqual({})
  })
})

describe('compatibility options', () => {
  it('turns retry: {} into 3 retries, like axios-retry, and keeps retries off without it', () => {
    expect(resolveClientConfig({ retry: {} }).retry.retries).toBe(3)
    expect(resolveClientConfig({}).retry.retries).toBe(0)
    expect(resolveClientConfig({ retry: { retries: 0 } }).retry.retries).toBe(0)
  })

  it('sends x-workspace-id and joins array header values', () => {
    vi.stubEnv('BP_WORKSPACE_ID', '')
    const config = resolveClientConfig({ workspaceId: 'ws1', headers: { 'x-list': ['a', 'b'] } })
    expect(config.headers['x-workspace-id']).toBe('ws1')
    expect(config.headers['x-list']).toBe('a, b')
  })
})

describe('header options', () => {
  it('names the option whose value cannot be sent as a header', async () => {
    const { InvalidInputError } = await import('./errors/client-errors.js')
    expect(() => resolveClientConfig({ botId: 'abc\nx' })).toThrow(InvalidInputError)
    expect(() => resolveClientConfig({ botId: 'abc\nx' })).toThrow(/^botId: expected a value without line breaks/)
    expect(() => resolveClientConfig({ token: 'bs_abc\r\n' })).toThrow(/^token: /)
    expect(() => resolveClientConfig({ headers: { 'x-trace': 'a\u0000b' } })).toThrow(/^headers\.x-trace: /)
    expect(() => resolveClientConfig({ headers: { 'bad name': 'v' } })).toThrow(/^headers: expected header names/)
  })

  it('keeps ordinary values as they are', () => {
    const config = resolveClientConfig({ token: 'bs_abc', botId: 'bot-1', headers: { 'X-Trace': 'a b' } })
    expect(config.headers).toMatchObject({ authorization: 'bearer bs_abc', 'x-bot-id': 'bot-1', 'x-trace': 'a b' })
  })
})
