import type postgres from 'postgres'
import type { NormalizedTagCondition } from 'botshelf/api'
import type { PgSql } from './pg-types.js'
import { tagTables } from '../tag-tables.js'

/** The tag side tables {@link tagConditions} serves on PostgreSQL (the tables catalog filters `table_tags` in its own query). */
export const pgTagTables = { file_tags: tagTables.file_tags, knowledge_base_tags: tagTables.knowledge_base_tags } as const

/** A tag side table on PostgreSQL. */
export type PgTagTable = keyof typeof pgTagTables

/**
 * Tag conditions (docs/wire-format.md §9) as a SQL fragment over a tag side table, with the semantics of every
 * backend: `anyOf` with no value matches nothing, `noneOf` lets owners without the tag through, `exists`
 * tests the key. `owner` is the alias of the tagged row.
 *
 * @example
 * ```ts
 * const where = tagConditions(sql, [{ key: 'lang', anyOf: ['en', 'fr'] }], 'f', 'file_tags')
 * await sql`SELECT f.* FROM files f WHERE ${where}`
 * ```
 */
export function tagConditions(
  sql: PgSql,
  conditions: ReadonlyArray<NormalizedTagCondition>,
  owner: string,
  tagTable: PgTagTable,
): postgres.PendingQuery<postgres.Row[]> {
  const table = sql(tagTable)
  const ownerColumn = sql(pgTagTables[tagTable])
  const ownerId = sql(`${owner}.id`)
  const has = (key: string) => sql`SELECT 1 FROM ${table} t WHERE t.${ownerColumn} = ${ownerId} AND t.tag_key = ${key}`
  const parts: Array<postgres.PendingQuery<postgres.Row[]>> = []
  for (const condition of conditions) {
    if (condition.anyOf !== undefined) {
      parts.push(condition.anyOf.length === 0 ? sql`false` : sql`EXISTS (${has(condition.key)} AND t.tag_value IN ${sql([...condition.anyOf])})`)
    }
    if (condition.noneOf !== undefined && condition.noneOf.length > 0) {
      parts.push(sql`NOT EXISTS (${has(condition.key)} AND t.tag_value IN ${sql([...condition.noneOf])})`)
    }
    if (condition.exists !== undefined) parts.push(condition.exists ? sql`EXISTS (${has(condition.key)})` : sql`NOT EXISTS (${has(condition.key)})`)
  }
  return parts.reduce((all, part) => sql`${all} AND ${part}`, sql`true`)
}

/**
 * Replaces the tags of one owner in its side table, in two statements (inside the caller's transaction).
 *
 * @example
 * ```ts
 * await replaceTags(tx, 'file_tags', file.id, file.botId, { lang: 'en' })
 * ```
 */
export async function replaceTags(sql: PgSql, tagTable: PgTagTable, ownerId: string, botId: string, tags: Record<string, string>): Promise<void> {
  await sql`DELETE FROM ${sql(tagTable)} WHERE ${sql(pgTagTables[tagTable])} = ${ownerId}`
  await insertTags(sql, tagTable, ownerId, botId, tags)
}

/**
 * Writes the tags of an owner that has none yet (a row just created): no statement when `tags` is empty.
 *
 * @example
 * ```ts
 * await insertTags(tx, 'file_tags', file.id, botId, { kind: 'faq' })
 * ```
 */
export async function insertTags(sql: PgSql, tagTable: PgTagTable, ownerId: string, botId: string, tags: Record<string, string>): Promise<void> {
  const table = sql(tagTable)
  const ownerColumn = sql(pgTagTables[tagTable])
  const entries = Object.entries(tags)
  if (entries.length === 0) return
  await sql`
    INSERT INTO ${table} (${ownerColumn}, bot_id, tag_key, tag_value)
    SELECT ${ownerId}, ${botId}, k, v FROM unnest(${entries.map(([key]) => key)}::text[], ${entries.map(([, value]) => value)}::text[]) AS e (k, v)`
}
