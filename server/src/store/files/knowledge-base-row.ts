import type { KnowledgeBaseRecord } from './types.js'

/** A row of the `knowledge_bases` table: the same columns on SQLite and PostgreSQL. */
export interface KnowledgeBaseRow {
  id: string
  bot_id: string
  name: string
  tags_json: string
  created_at: string
  updated_at: string
}

/**
 * The port's record of a knowledge-base row (tags parsed).
 *
 * @example
 * const kb = knowledgeBaseRowToRecord(db.prepare('SELECT * FROM knowledge_bases WHERE id = ?').get(id) as KnowledgeBaseRow)
 */
export function knowledgeBaseRowToRecord(row: KnowledgeBaseRow): KnowledgeBaseRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    name: row.name,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
