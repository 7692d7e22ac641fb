import type { NormalizedTagCondition } from 'botshelf/api'
import { mergePatch } from '../../files/merge-patch.js'
import { knowledgeBaseRowToRecord, type KnowledgeBaseRow } from '../../files/knowledge-base-row.js'
import type { FilePosition, KnowledgeBaseRecord } from '../../files/types.js'

import { newKnowledgeBaseId } from '../../files/ids.js'
import { replaceTags, tagConditionsSql } from '../tag-sql.js'
import type { Sqlite } from '../connect.js'
import { systemClock, type Clock } from '../../clock.js'



/**
 * Knowledge bases of a bot: a name and tags. Listed newest first, keyset-paginated on (createdAt, id).
 *
 * @example
 * ```ts
 * const kbs = new KnowledgeBasesRepository(db)
 * kbs.create({ botId, name: 'Docs', tags: {} })
 * ```
 */
export class KnowledgeBasesRepository {
  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock = systemClock,
  ) {}

  /**
   * Creates a knowledge base.
   *
   * @example
   * ```ts
   * kbs.create({ botId, name: 'Docs', tags: { team: 'support' } })
   * ```
   */
  create(input: { botId: string; name: string; tags: Record<string, string> }): KnowledgeBaseRecord {
    return this.db.transaction(() => {
      const now = this.now()
      const id = newKnowledgeBaseId(now)
      const nowIso = now.toISOString()
      this.db
        .prepare('INSERT INTO knowledge_bases (id, bot_id, name, tags_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, input.botId, input.name, JSON.stringify(input.tags), nowIso, nowIso)
      replaceTags(this.db, 'knowledge_base_tags', id, input.botId, input.tags)
      return this.get(input.botId, id)!
    })()
  }

  /**
   * A knowledge base of a bot by id.
   *
   * @example
   * ```ts
   * kbs.get(botId, 'kb_01K...')
   * ```
   */
  get(botId: string, id: string): KnowledgeBaseRecord | undefined {
    const row = this.db.prepare('SELECT * FROM knowledge_bases WHERE bot_id = ? AND id = ?').get(botId, id) as KnowledgeBaseRow | undefined
    return row ? knowledgeBaseRowToRecord(row) : undefined
  }

  /**
   * Renames a knowledge base and merges its tags (`null` deletes).
   *
   * @example
   * ```ts
   * kbs.update(botId, 'kb_1', { name: 'Docs v2', tags: { old: null } })
   * ```
   */
  update(botId: string, id: string, patch: { name: string; tags?: Record<string, string | null> }): KnowledgeBaseRecord | undefined {
    const now = this.now()
    return this.db.transaction(() => {
      const current = this.get(botId, id)
      if (!current) return undefined
      const tags = mergePatch(current.tags, patch.tags) as Record<string, string>
      this.db
        .prepare('UPDATE knowledge_bases SET name = ?, tags_json = ?, updated_at = ? WHERE id = ?')
        .run(patch.name, JSON.stringify(tags), now.toISOString(), id)
      replaceTags(this.db, 'knowledge_base_tags', id, botId, tags)
      return this.get(botId, id)
    })()
  }

  /**
   * Deletes a knowledge base; returns whether it existed.
   *
   * @example
   * ```ts
   * kbs.delete(botId, 'kb_1') // true
   * ```
   */
  delete(botId: string, id: string): boolean {
    return this.db.prepare('DELETE FROM knowledge_bases WHERE bot_id = ? AND id = ?').run(botId, id).changes > 0
  }

  /**
   * One page of knowledge bases, newest first, optionally filtered by tags.
   *
   * @example
   * ```ts
   * kbs.list({ botId, pageSize: 20 })
   * ```
   */
  list(query: {
    botId: string
    tags?: ReadonlyArray<NormalizedTagCondition>
    pageSize: number
    after?: FilePosition
  }): { items: KnowledgeBaseRecord[]; next?: FilePosition } {
    const where = ['k.bot_id = ?']
    const params: unknown[] = [query.botId]
    if (query.tags && query.tags.length > 0) {
      const tags = tagConditionsSql(query.tags, 'k', 'knowledge_base_tags')
      where.push(tags.sql)
      params.push(...tags.params)
    }
    if (query.after) {
      where.push('(k.created_at, k.id) < (?, ?)')
      params.push(query.after.value, query.after.id)
    }
    const rows = this.db
      .prepare(`SELECT * FROM knowledge_bases k WHERE ${where.join(' AND ')} ORDER BY k.created_at DESC, k.id DESC LIMIT ?`)
      .all(...params, query.pageSize + 1) as KnowledgeBaseRow[]
    const more = rows.length > query.pageSize
    const page = more ? rows.slice(0, query.pageSize) : rows
    const last = page[page.length - 1]
    return { items: page.map(knowledgeBaseRowToRecord), ...(more && last ? { next: { value: last.created_at, id: last.id } } : {}) }
  }

}
