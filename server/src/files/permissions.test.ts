import { describe, expect, it } from 'vitest'
import type { Principal } from '../http/principal.js'
import { canAccessFile, canCreateFile, canUseFiles, listScopeFor, ownerFor, type FileAccessFacts, type FileAction } from './permissions.js'

const B = 'bot_1'
const callers: Record<string, Principal> = {
  bot: { kind: 'bot', botId: B, tokenId: 't' },
  alpha: { kind: 'integration', botId: B, integrationName: 'alpha', tokenId: 't' },
  beta: { kind: 'integration', botId: B, integrationName: 'beta', tokenId: 't' },
  viewer: { kind: 'member', botId: B, role: 'viewer', userId: 'u', tokenId: 't' },
  developer: { kind: 'member', botId: B, role: 'developer', userId: 'u', tokenId: 't' },
  manager: { kind: 'member', botId: B, role: 'manager', userId: 'u', tokenId: 't' },
  administrator: { kind: 'member', botId: B, role: 'administrator', userId: 'u', tokenId: 't' },
  billing: { kind: 'member', botId: B, role: 'billing_manager', userId: 'u', tokenId: 't' },
  otherBot: { kind: 'bot', botId: 'bot_2', tokenId: 't' },
}

const files: Record<string, FileAccessFacts> = {
  botPrivate: { botId: B, owner: { type: 'bot', id: B }, accessPolicies: [] },
  alphaPrivate: { botId: B, owner: { type: 'integration', name: 'alpha' }, accessPolicies: [] },
  alphaShared: { botId: B, owner: { type: 'integration', name: 'alpha' }, accessPolicies: ['integrations'] },
  botPublic: { botId: B, owner: { type: 'bot', id: B }, accessPolicies: ['public_content'] },
}

const R = 'read list search'
const ALL = 'read list search update delete'
// caller -> file -> allowed actions; everything not listed is denied.
const expected: Record<string, Record<string, string>> = {
  bot: { botPrivate: ALL, alphaPrivate: ALL, alphaShared: ALL, botPublic: ALL },
  alpha: { botPrivate: '', alphaPrivate: ALL, alphaShared: ALL, botPublic: '' },
  beta: { botPrivate: '', alphaPrivate: '', alphaShared: R, botPublic: '' },
  viewer: { botPrivate: R, alphaPrivate: R, alphaShared: R, botPublic: R },
  developer: { botPrivate: ALL, alphaPrivate: ALL, alphaShared: ALL, botPublic: ALL },
  manager: { botPrivate: ALL, alphaPrivate: ALL, alphaShared: ALL, botPublic: ALL },
  administrator: { botPrivate: ALL, alphaPrivate: ALL, alphaShared: ALL, botPublic: ALL },
  billing: { botPrivate: '', alphaPrivate: '', alphaShared: '', botPublic: '' },
  otherBot: { botPrivate: '', alphaPrivate: '', alphaShared: '', botPublic: '' },
}
const actions: FileAction[] = ['read', 'list', 'search', 'update', 'delete']

describe('canAccessFile', () => {
  const cases = Object.entries(expected).flatMap(([caller, byFile]) =>
    Object.entries(byFile).flatMap(([file, allowed]) =>
      actions.map((action) => [caller, file, action, allowed.split(' ').includes(action)] as const),
    ),
  )
  it.each(cases)('%s on %s: %s → %s', (caller, file, action, allowed) => {
    expect(canAccessFile(callers[caller]!, action, files[file]!)).toBe(allowed)
  })
})

describe('creation, scope and owner', () => {
  it('lets bots, integrations and editing members create; not viewers or billing managers', () => {
    const creators = Object.entries(callers).filter(([, p]) => canCreateFile(p)).map(([name]) => name)
    expect(creators).toEqual(['bot', 'alpha', 'beta', 'developer', 'manager', 'administrator', 'otherBot'])
    expect(canUseFiles(callers.billing!)).toBe(false)
    expect(canUseFiles(callers.viewer!)).toBe(true)
  })

  it('scopes integrations and records owners', () => {
    expect(listScopeFor(callers.alpha!)).toEqual({ kind: 'integration', integrationName: 'alpha' })
    expect(listScopeFor(callers.viewer!)).toEqual({ kind: 'all' })
    expect(ownerFor(callers.alpha!)).toEqual({ owner: { type: 'integration', name: 'alpha', alias: 'alpha' }, scope: 'alpha' })
    expect(ownerFor(callers.developer!)).toEqual({ owner: { type: 'user', id: 'u' }, scope: '' })
  })
})
