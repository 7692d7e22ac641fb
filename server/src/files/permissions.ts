import type { AccessPolicy, FileOwner } from 'botshelf/api'
import type { Principal } from '../http/principal.js'
import type { FilesAccessScope } from '../store/index.js'

/**
 * What a caller wants to do with a file. `read` covers getFile and downloads, `list` covers listFiles and the
 * tag lists, `search` covers searchFiles and passages, `update` covers updateFileMetadata, re-upserting a key,
 * setFilePassages and being overwritten by copyFile.
 */
export type FileAction = 'read' | 'list' | 'search' | 'update' | 'delete'

/** The facts about a file that decide access. */
export interface FileAccessFacts {
  botId: string
  owner: FileOwner
  accessPolicies: ReadonlyArray<AccessPolicy>
}

const READ_ACTIONS: ReadonlySet<FileAction> = new Set(['read', 'list', 'search'])

/**
 * Whether a caller may perform an action on a file (docs/wire-format.md §6):
 * - a bot has full access to every file of its bot, whoever created it;
 * - an integration has full access to the files it created, and read/search/list access to other files of
 *   the bot that carry the `integrations` policy; nothing else (a file without policies is reachable only by
 *   its creator, apart from the bot and members);
 * - a Viewer may read, search and list every file of the bot; Developers, Managers and Administrators have
 *   full access; a Billing Manager has none;
 * - no caller reaches a file of another bot.
 *
 * @example
 * ```ts
 * canAccessFile({ kind: 'member', role: 'viewer', botId: 'b', userId: 'u', tokenId: 't' }, 'delete', file) // false
 * ```
 */
export function canAccessFile(principal: Principal, action: FileAction, file: FileAccessFacts): boolean {
  if (principal.botId !== file.botId) return false
  switch (principal.kind) {
    case 'bot':
      return true
    case 'integration':
      if (file.owner.type === 'integration' && file.owner.name === principal.integrationName) return true
      return READ_ACTIONS.has(action) && file.accessPolicies.includes('integrations')
    case 'member':
      switch (principal.role) {
        case 'viewer':
          return READ_ACTIONS.has(action)
        case 'developer':
        case 'manager':
        case 'administrator':
          return true
        case 'billing_manager':
          return false
      }
  }
}

/**
 * Whether a caller may create files in its bot (upsertFile of a new key, copyFile to a new key): bots,
 * integrations, Developers, Managers and Administrators.
 *
 * @example
 * ```ts
 * canCreateFile({ kind: 'bot', botId: 'b', tokenId: 't' }) // true
 * ```
 */
export function canCreateFile(principal: Principal): boolean {
  if (principal.kind !== 'member') return true
  return principal.role === 'developer' || principal.role === 'manager' || principal.role === 'administrator'
}

/**
 * Whether a caller may use the Files API at all for reading (a Billing Manager may not).
 *
 * @example
 * ```ts
 * canUseFiles({ kind: 'member', role: 'billing_manager', botId: 'b', userId: 'u', tokenId: 't' }) // false
 * ```
 */
export function canUseFiles(principal: Principal): boolean {
  return !(principal.kind === 'member' && principal.role === 'billing_manager')
}

/**
 * The files a caller's lists may show, as a store scope: everything of the bot, or for an integration its own
 * files plus those with the `integrations` policy. Callers that may not list at all are refused before.
 *
 * @example
 * ```ts
 * listScopeFor({ kind: 'integration', integrationName: 'slack', botId: 'b', tokenId: 't' })
 * // { kind: 'integration', integrationName: 'slack' }
 * ```
 */
export function listScopeFor(principal: Principal): FilesAccessScope {
  return principal.kind === 'integration' ? { kind: 'integration', integrationName: principal.integrationName } : { kind: 'all' }
}

/**
 * The owner a new file gets, and its key scope (keys are unique per bot and per integration owner).
 *
 * @example
 * ```ts
 * ownerFor({ kind: 'bot', botId: 'b', tokenId: 't' }) // { owner: { type: 'bot', id: 'b' }, scope: '' }
 * ```
 */
export function ownerFor(principal: Principal): { owner: FileOwner; scope: string } {
  switch (principal.kind) {
    case 'bot':
      return { owner: { type: 'bot', id: principal.botId }, scope: '' }
    case 'integration':
      return { owner: { type: 'integration', name: principal.integrationName, alias: principal.integrationName }, scope: principal.integrationName }
    case 'member':
      return { owner: { type: 'user', id: principal.userId }, scope: '' }
  }
}

/**
 * Whether a caller may create, rename or delete knowledge bases (same roles as file creation); everybody who
 * may use the Files API may list them.
 *
 * @example
 * ```ts
 * canManageKnowledgeBases({ kind: 'member', role: 'viewer', botId: 'b', userId: 'u', tokenId: 't' }) // false
 * ```
 */
export function canManageKnowledgeBases(principal: Principal): boolean {
  return canCreateFile(principal)
}
