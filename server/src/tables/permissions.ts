import type { Principal } from '../http/principal.js'

/** What an operation does to a bot's tables: `read` (list, get, find, jobs) or `write` (anything that changes data or creates files). */
export type TablesAccess = 'read' | 'write'

/**
 * The access each Tables operation needs (decision 0406). `getOrCreateTable` is a write even when the
 * table exists; `exportTable` is a write because it creates a file.
 */
export const tablesOperationAccess = {
  listTables: 'read',
  getTable: 'read',
  getTableRow: 'read',
  findTableRows: 'read',
  getTableJobs: 'read',
  createTable: 'write',
  getOrCreateTable: 'write',
  updateTable: 'write',
  deleteTable: 'write',
  duplicateTable: 'write',
  renameTableColumn: 'write',
  createTableRows: 'write',
  updateTableRows: 'write',
  upsertTableRows: 'write',
  deleteTableRows: 'write',
  importTable: 'write',
  exportTable: 'write',
} as const satisfies Record<string, TablesAccess>

/**
 * Whether a caller may read or write its bot's tables (docs/wire-format.md §6): bots and
 * integrations have full access to their bot's tables; Viewers read only; Developers, Managers and
 * Administrators full access; Billing Managers none. Tables are always those of `principal.botId`.
 *
 * @example
 * ```ts
 * canAccessTables({ kind: 'member', role: 'viewer', botId: 'b', userId: 'u', tokenId: 't' }, 'write') // false
 * ```
 */
export function canAccessTables(principal: Principal, access: TablesAccess): boolean {
  switch (principal.kind) {
    case 'bot':
    case 'integration':
      return true
    case 'member':
      switch (principal.role) {
        case 'viewer':
          return access === 'read'
        case 'developer':
        case 'manager':
        case 'administrator':
          return true
        case 'billing_manager':
          return false
      }
  }
}
