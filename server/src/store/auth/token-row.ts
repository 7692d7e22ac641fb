import type { TokenRole } from 'botshelf/api'
import type { TokenRecord } from './types.js'

/** A row of the `tokens` table: the same columns on SQLite and PostgreSQL (the hash, never the secret). */
export interface TokenRow {
  id: string
  hash: string
  bot_id: string | null
  workspace_id: string | null
  role: string
  integration_name: string | null
  user_id: string | null
  label: string | null
  created_at: string
  revoked_at: string | null
}

/**
 * The port's record of a token row; a token without a bot is a workspace token.
 *
 * @example
 * const token = tokenRowToRecord(db.prepare('SELECT * FROM tokens WHERE id = ?').get(id) as TokenRow)
 * token.scope // 'bot' or 'workspace'
 */
export function tokenRowToRecord(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    scope: row.bot_id === null ? 'workspace' : 'bot',
    botId: row.bot_id,
    workspaceId: row.workspace_id,
    role: row.role as TokenRole,
    integrationName: row.integration_name,
    userId: row.user_id,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }
}
