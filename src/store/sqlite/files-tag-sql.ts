import type { NormalizedTagCondition } from '../../api/files/tag-filter.js'

/** A SQL fragment and its positional parameters. */
export interface SqlFragment {
  sql: string
  params: unknown[]
}

/**
 * Translates tag conditions (wire reference §3.1) to SQL over a tag side table, so filters use the
 * `(bot_id, tag_key, tag_value)` index instead of scanning JSON. `owner` is the alias of the tagged row and
 * `tagTable` the side table (`file_tags` or `knowledge_base_tags`). An `anyOf` with no value matches nothing;
 * a `noneOf` lets rows without the tag through.
 *
 * @example
 * ```ts
 * tagConditionsSql([{ key: 'lang', anyOf: ['en', 'fr'] }], 'f', 'file_tags')
 * // { sql: 'EXISTS (SELECT 1 FROM file_tags t WHERE t.file_id = f.id AND t.tag_key = ? AND t.tag_value IN (?, ?))', params: ['lang', 'en', 'fr'] }
 * ```
 */
export function tagConditionsSql(conditions: ReadonlyArray<NormalizedTagCondition>, owner: string, tagTable: string): SqlFragment {
  const parts: string[] = []
  const params: unknown[] = []
  const has = `SELECT 1 FROM ${tagTable} t WHERE t.file_id = ${owner}.id AND t.tag_key = ?`
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
