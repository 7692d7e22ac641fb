/**
 * The tag side tables and the column that names each one's owner (the one tag model, the same on every engine):
 * all have `(owner, bot_id, tag_key, tag_value)`, a primary key on (owner, tag_key) and a lookup index on
 * (bot_id, tag_key, tag_value, owner).
 *
 * @example
 * ```ts
 * tagTables.file_tags // 'file_id'
 * ```
 */
export const tagTables = { file_tags: 'file_id', knowledge_base_tags: 'knowledge_base_id', table_tags: 'table_id' } as const

/** A tag side table. */
export type TagTable = keyof typeof tagTables
