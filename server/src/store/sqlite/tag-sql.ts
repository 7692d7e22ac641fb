import type { NormalizedTagCondition } from 'botshelf/api'
import type { Statement } from 'better-sqlite3'
import type { Sqlite } from './connect.js'
import { tagTables, type TagTable } from '../tag-tables.js'

export { tagTables, type TagTable } from '../tag-tables.js'

/** A SQL fragment and its positional parameters. */
export interface SqlFragment {
  sql: string
  params: unknown[]
}

/**
 * Translates tag conditions (docs/wire-format.md §9) to SQL over a tag side table, so filters use the
 * `(bot_id, tag_key, tag_value)` index instead of scanning JSON. Every tagged thing has a side table of the
 * same shape (the one tag model): `owner` is the alias of the tagged row and `tagTable` its side table, whose
 * owner column is named by {@link tagTables}. An `anyOf` with no value matches nothing; a `noneOf` lets rows
 * without the tag through.
 *
 * @example
 * ```ts
 * tagConditionsSql([{ key: 'lang', anyOf: ['en', 'fr'] }], 'f', 'file_tags')
 * // { sql: 'EXISTS (SELECT 1 FROM file_tags t WHERE t.file_id = f.id AND t.tag_key = ? AND t.tag_value IN (?, ?))', params: ['lang', 'en', 'fr'] }
 * ```
 */
export function tagConditionsSql(conditions: ReadonlyArray<NormalizedTagCondition>, owner: string, tagTable: TagTable): SqlFragment {
  const parts: string[] = []
  const params: unknown[] = []
  const has = `SELECT 1 FROM ${tagTable} t WHERE t.${tagTables[tagTable]} = ${owner}.id AND t.tag_key = ?`
  for (const condition of conditions) {
    if (condition.anyOf !== undefined) {
      if (condition.anyOf.length === 0) parts.push('0 = 1')
      else {
        parts.push(`EXISTS (${has} AND t.tag_value IN (${condition.anyOf.map(() => '?').join(', ')}))`)
        params.push(condition.key, ...condition.anyOf)
      }
    }
    if (condition.noneOf !== undefined && condition.noneOf.length > 0) {
      parts.push(`NOT EXISTS (${has} AND t.tag_value IN (${condition.noneOf.map(() => '?').join(', ')}))`)
      params.push(condition.key, ...condition.noneOf)
    }
    if (condition.exists !== undefined) {
      parts.push(condition.exists ? `EXISTS (${has})` : `NOT EXISTS (${has})`)
      params.push(condition.key)
    }
  }
  return { sql: parts.length > 0 ? parts.join(' AND ') : '1 = 1', params }
}

/** Options of {@link replaceTags}. */
export interface ReplaceTagsOptions {
  /**
   * Compiles a statement (default `db.prepare`); pass a statement cache's `prepare` on hot paths.
   *
   * @example
   * ```ts
   * replaceTags(db, 'file_tags', id, botId, tags, { prepare: (sql) => cache.prepare(sql) })
   * ```
   */
  prepare?: (sql: string) => Statement<unknown[]>
  /**
   * The owner was inserted in this transaction under a new id, so it has no tags to delete first.
   *
   * @example
   * ```ts
   * replaceTags(db, 'file_tags', newId, botId, tags, { fresh: true })
   * ```
   */
  fresh?: boolean
}

/**
 * Replaces the tags of one owner in its side table (inside the caller's transaction): the side table mirrors the
 * owner's `tags_json` so filters can use the index.
 *
 * @example
 * ```ts
 * replaceTags(db, 'table_tags', record.id, record.botId, { team: 'sales' })
 * ```
 */
export function replaceTags(
  db: Sqlite,
  tagTable: TagTable,
  ownerId: string,
  botId: string,
  tags: Record<string, string>,
  options: ReplaceTagsOptions = {},
): void {
  const owner = tagTables[tagTable]
  const prepare = options.prepare ?? ((sql: string) => db.prepare<unknown[]>(sql))
  if (!options.fresh) prepare(`DELETE FROM ${tagTable} WHERE ${owner} = ?`).run(ownerId)
  let insert: Statement<unknown[]> | undefined
  for (const [key, value] of Object.entries(tags)) {
    insert ??= prepare(`INSERT INTO ${tagTable} (${owner}, bot_id, tag_key, tag_value) VALUES (?, ?, ?, ?)`)
    insert.run(ownerId, botId, key, value)
  }
}
