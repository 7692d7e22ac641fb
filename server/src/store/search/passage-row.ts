import type { PassageRecord, PassageSubtype, StoredPassageType } from './types.js'

/** A row of `search_passages`: the same columns on SQLite and PostgreSQL (SQLite also reads its `rowid`). */
export interface PassageRow {
  rowid?: number
  id: string
  file_id: string
  bot_id: string
  position: number
  content: string
  /** Added by a later migration: rows written before it are chunks. */
  passage_type?: StoredPassageType | null
  subtype: PassageSubtype
  page_number: number | null
  breadcrumb_json: string
}

/**
 * The port's record of a passage row (breadcrumb parsed; numbers made numbers, as PostgreSQL may hand back a
 * bigint column as text).
 *
 * @example
 * const passage = passageRowToRecord(db.prepare('SELECT * FROM search_passages WHERE id = ?').get(id) as PassageRow)
 */
export function passageRowToRecord(row: PassageRow): PassageRecord {
  return {
    id: row.id,
    fileId: row.file_id,
    botId: row.bot_id,
    position: Number(row.position),
    content: row.content,
    type: row.passage_type ?? 'chunk',
    subtype: row.subtype,
    pageNumber: row.page_number === null ? null : Number(row.page_number),
    breadcrumb: JSON.parse(row.breadcrumb_json) as string[],
  }
}
