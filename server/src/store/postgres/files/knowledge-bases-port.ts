import type { NormalizedTagCondition } from 'botshelf/api'
import type { Clock } from '../../clock.js'
import type { KnowledgeBasesPort } from '../../files/files-port.js'
import { newKnowledgeBaseId } from '../../files/ids.js'
import { mergePatch } from '../../files/merge-patch.js'
import { knowledgeBaseRowToRecord, type KnowledgeBaseRow } from '../../files/knowledge-base-row.js'
import type { FilePosition, KnowledgeBaseRecord } from '../../files/types.js'
import type { PgScope } from '../pg-scope.js'
import { replaceTags, tagConditions } from '../tag-sql.js'
import { hasNul } from '../text-limits.js'



/**
 * The knowledge-bases port on PostgreSQL: a name and tags (side table, the one tag model), newest first in keyset
 * pages on (createdAt, id), as on every backend.
 *
 * @example
 * ```ts
 * const kbs = new PgKnowledgeBasesPort(rootScope(sql), systemClock)
 * await kbs.create({ botId, name: 'Docs', tags: {} })
 * ```
 */
export class PgKnowledgeBasesPort implements KnowledgeBasesPort {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  /**
   * Creates a knowledge base.
   *
   * @example
   * ```ts
   * await kbs.create({ botId, name: 'Docs', tags: { team: 'support' } })
   * ```
   */
  async create(input: { botId: string; name: string; tags: Record<string, string> }): Promise<KnowledgeBaseRecord> {
    return this.scope.atomic(async (sql) => {
      const now = this.now()
      const nowIso = now.toISOString()
      const [row] = await sql<KnowledgeBaseRow[]>`
        INSERT INTO knowledge_bases (id, bot_id, name, tags_json, created_at, updated_at)
        VALUES (${newKnowledgeBaseId(now)}, ${input.botId}, ${input.name}, ${JSON.stringify(input.tags)}, ${nowIso}, ${nowIso}) RETURNING *`
      await replaceTags(sql, 'knowledge_base_tags', row!.id, input.botId, input.tags)
      return knowledgeBaseRowToRecord(row!)
    })
  }

  /**
   * A knowledge base of a bot by id.
   *
   * @example
   * ```ts
   * await kbs.get(botId, 'kb_01K...')
   * ```
   */
  async get(botId: string, id: string): Promise<KnowledgeBaseRecord | undefined> {
    if (hasNul(botId, id)) return undefined
    const [row] = await this.scope.sql<KnowledgeBaseRow[]>`SELECT * FROM knowledge_bases WHERE bot_id = ${botId} AND id = ${id}`
    return row ? knowledgeBaseRowToRecord(row) : undefined
  }

  /**
   * Renames it and merges its tags (`null` deletes); `undefined` when it does not exist.
   *
   * @example
   * ```ts
   * await kbs.update(botId, 'kb_1', { name: 'Docs v2', tags: { old: null } })
   * ```
   */
  async update(botId: string, id: string, patch: { name: string; tags?: Record<string, string | null> }): Promise<KnowledgeBaseRecord | undefined> {
    return this.scope.atomic(async (sql) => {
      const [current] = await sql<KnowledgeBaseRow[]>`SELECT * FROM knowledge_bases WHERE bot_id = ${botId} AND id = ${id} FOR UPDATE`
      if (!current) return undefined
      const tags = mergePatch(knowledgeBaseRowToRecord(current).tags, patch.tags) as Record<string, string>
      const [row] = await sql<KnowledgeBaseRow[]>`
        UPDATE knowledge_bases SET name = ${patch.name}, tags_json = ${JSON.stringify(tags)}, updated_at = ${this.now().toISOString()}
        WHERE id = ${id} RETURNING *`
      await replaceTags(sql, 'knowledge_base_tags', id, botId, tags)
      return knowledgeBaseRowToRecord(row!)
    })
  }

  /**
   * Deletes it; false when it did not exist.
   *
   * @example
   * ```ts
   * await kbs.delete(botId, 'kb_1') // true
   * ```
   */
  async delete(botId: string, id: string): Promise<boolean> {
    const result = await this.scope.sql`DELETE FROM knowledge_bases WHERE bot_id = ${botId} AND id = ${id}`
    return result.count > 0
  }

  /**
   * One page, newest first, optionally filtered by tags.
   *
   * @example
   * ```ts
   * await kbs.list({ botId, pageSize: 20 })
   * ```
   */
  async list(query: {
    botId: string
    tags?: ReadonlyArray<NormalizedTagCondition>
    pageSize: number
    after?: FilePosition
  }): Promise<{ items: KnowledgeBaseRecord[]; next?: FilePosition }> {
    const sql = this.scope.sql
    const tags = query.tags && query.tags.length > 0 ? tagConditions(sql, query.tags, 'k', 'knowledge_base_tags') : sql`true`
    const after = query.after ? sql`AND (k.created_at, k.id) < (${String(query.after.value)}, ${query.after.id})` : sql``
    const rows = await sql<KnowledgeBaseRow[]>`
      SELECT * FROM knowledge_bases k WHERE k.bot_id = ${query.botId} AND ${tags} ${after}
      ORDER BY k.created_at DESC, k.id DESC LIMIT ${query.pageSize + 1}`
    const more = rows.length > query.pageSize
    const page = more ? rows.slice(0, query.pageSize) : rows
    const last = page[page.length - 1]
    return { items: page.map(knowledgeBaseRowToRecord), ...(more && last ? { next: { value: last.created_at, id: last.id } } : {}) }
  }
}
