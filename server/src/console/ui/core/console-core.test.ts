import { describe, expect, it } from 'vitest'
import { capabilitiesOf } from './identity.js'
import { parseRoute, routeHref } from './route.js'
import { signInCodeFrom } from './sign-in-link.js'
import { formatBytes } from './format.js'

describe('capabilitiesOf', () => {
  it('lets viewers read only, billing managers nothing, writers write; administering needs the whoami flag', () => {
    expect(capabilitiesOf({ role: 'viewer', canAdminister: false })).toEqual({ readFiles: true, writeFiles: false, deleteFiles: false, readTables: true, writeTables: false, administer: false, readWebhooks: true, manageWebhooks: false })
    expect(capabilitiesOf({ role: 'billing_manager', canAdminister: false })).toMatchObject({ readFiles: false, readTables: false, writeFiles: false })
    for (const role of ['bot', 'integration', 'developer', 'manager', 'administrator']) {
      expect(capabilitiesOf({ role, canAdminister: false })).toMatchObject({ writeFiles: true, deleteFiles: true, writeTables: true, administer: false })
    }
    expect(capabilitiesOf({ role: 'administrator', canAdminister: true }).administer).toBe(true)
    // Webhooks: the bot and the managing members manage, viewers read, integrations and billing managers neither.
    expect(capabilitiesOf({ role: 'developer', canAdminister: false })).toMatchObject({ readWebhooks: true, manageWebhooks: true })
    expect(capabilitiesOf({ role: 'bot', canAdminister: false })).toMatchObject({ readWebhooks: true, manageWebhooks: true })
    expect(capabilitiesOf({ role: 'integration', canAdminister: false })).toMatchObject({ readWebhooks: false, manageWebhooks: false })
    expect(capabilitiesOf({ role: 'billing_manager', canAdminister: false })).toMatchObject({ readWebhooks: false, manageWebhooks: false })
  })
})

describe('routes', () => {
  it('reads and writes fragments, keys with slashes and spaces included', () => {
    expect(parseRoute('')).toEqual({ page: 'files' })
    expect(parseRoute('#/tables')).toEqual({ page: 'tables' })
    expect(parseRoute('#/tables/ordersTable')).toEqual({ page: 'tables', table: 'ordersTable' })
    expect(parseRoute('#/tokens')).toEqual({ page: 'tokens' })
    expect(parseRoute('#/nowhere')).toEqual({ page: 'files' })
    const route = { page: 'files', fileId: 'docs/a b.txt' } as const
    expect(parseRoute(routeHref(route))).toEqual(route)
  })
})

describe('signInCodeFrom', () => {
  it('takes a base64url code from #sign-in= and nothing else', () => {
    expect(signInCodeFrom('#sign-in=abc_DEF-123')).toBe('abc_DEF-123')
    expect(signInCodeFrom('#/files')).toBeUndefined()
    expect(signInCodeFrom('#sign-in=')).toBeUndefined()
    expect(signInCodeFrom('#sign-in=a<b')).toBeUndefined()
  })
})

describe('formatBytes', () => {
  it('writes sizes as the CLI does: powers of 1000, one decimal', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1536)).toBe('1.5 kB')
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.1 MB')
    expect(formatBytes(20 * 1024 * 1024)).toBe('21.0 MB')
    expect(formatBytes(null)).toBe('—')
  })
})
