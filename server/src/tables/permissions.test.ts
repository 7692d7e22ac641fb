import { describe, expect, it } from 'vitest'
import { tablesOperations } from 'botshelf/api'
import type { Principal } from '../http/principal.js'
import { canAccessTables, tablesOperationAccess } from './permissions.js'

const principals: Record<string, Principal> = {
  bot: { kind: 'bot', botId: 'b', tokenId: 't' },
  integration: { kind: 'integration', botId: 'b', integrationName: 'alpha', tokenId: 't' },
  viewer: { kind: 'member', botId: 'b', role: 'viewer', userId: 'u', tokenId: 't' },
  developer: { kind: 'member', botId: 'b', role: 'developer', userId: 'u', tokenId: 't' },
  manager: { kind: 'member', botId: 'b', role: 'manager', userId: 'u', tokenId: 't' },
  administrator: { kind: 'member', botId: 'b', role: 'administrator', userId: 'u', tokenId: 't' },
  billing_manager: { kind: 'member', botId: 'b', role: 'billing_manager', userId: 'u', tokenId: 't' },
}

const expected: Record<string, { read: boolean; write: boolean }> = {
  bot: { read: true, write: true },
  integration: { read: true, write: true },
  viewer: { read: true, write: false },
  developer: { read: true, write: true },
  manager: { read: true, write: true },
  administrator: { read: true, write: true },
  billing_manager: { read: false, write: false },
}

describe('canAccessTables', () => {
  for (const [name, principal] of Object.entries(principals)) {
    for (const access of ['read', 'write'] as const) {
      it(`${name} ${expected[name]![access] ? 'may' : 'may not'} ${access}`, () => {
        expect(canAccessTables(principal, access)).toBe(expected[name]![access])
      })
    }
  }

  it('classifies every Tables operation', () => {
    expect(Object.keys(tablesOperationAccess).sort()).toEqual(Object.keys(tablesOperations).sort())
  })
})
