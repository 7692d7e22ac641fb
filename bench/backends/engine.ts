import type { Backend } from '../../server/src/store/backend.js'
import type { TableRecord } from '../../server/src/store/tables/types.js'

/** A files row of the bench: key `bench/<n>`, created `BASE_TIME + n` ms, in the growth bot or the ratio bot. */
export const BASE_TIME_MS = Date.parse('2026-01-01T00:00:00.000Z')

/** The id of bench file `n`: zero-padded so that text order is number order. */
export const benchFileId = (n: number): string => `file_bench${String(n).padStart(9, '0')}`

/** The `created_at` of bench file `n`. */
export const benchCreatedAt = (n: number): string => new Date(BASE_TIME_MS + n).toISOString()

/** The columns of the bench's user tables, as the ports see them. */
export const TABLE_SCHEMA = { category: 'x', amount: 0, flag: true, note: 'x' }

/** Row `n` of a bench table, as a user would write it. */
export function benchRow(n: number): { category: string; amount: number; flag: boolean; note: string } {
  return { category: `cat${n % 20}`, amount: (n * 7919) % 10_000, flag: n % 3 === 0, note: `note number ${n}` }
}

/** Physical names of the bench table's columns. */
export interface PhysicalTable {
  table: string
  category: string
  amount: string
  flag: string
  note: string
}

/** The physical table and columns of a user table from its catalog record. */
export function physicalOf(record: TableRecord): PhysicalTable {
  const column = (name: string) => record.physicalMap[name] ?? missing(name)
  return { table: record.physical, category: column('category'), amount: column('amount'), flag: column('flag'), note: column('note') }
}

function missing(name: string): never {
  throw new Error(`the bench table has no column ${name}`)
}

/**
 * One engine under bench: the backend (the ports, as the server uses them) and the same reads and writes as bare
 * SQL on the same database through the engine's own driver, plus bulk loads that fill the port's own tables.
 */
export interface Engine {
  name: 'sqlite' | 'postgres'
  backend: Backend
  /** Bare SQL: the row of an upsertFile (insert, or update on the same key) then the content commit. */
  rawUpsertAndComplete(botId: string, key: string, n: number): Promise<unknown>
  /** Bare SQL: one file by bot and id. */
  rawGetFile(botId: string, id: string): Promise<unknown>
  /** Bare SQL: a page of files by creation time, newest first, after a keyset position. */
  rawListFiles(botId: string, pageSize: number, after: { value: string; id: string } | undefined): Promise<unknown>
  /** Bare SQL: inserts rows into the user table. */
  rawInsertRows(table: PhysicalTable, rows: ReadonlyArray<ReturnType<typeof benchRow>>): Promise<unknown>
  /** Bare SQL: rows with amount >= min, by id, first `limit`. */
  rawFindRows(table: PhysicalTable, min: number, limit: number): Promise<unknown>
  /** Bare SQL: per category, the count and sum of amount. */
  rawGroupRows(table: PhysicalTable): Promise<unknown>
  /** Bare SQL: the 20 passages of a bot best matching any of the words, with their columns. */
  rawSearch(botId: string, words: ReadonlyArray<string>): Promise<unknown>
  /** Bulk SQL: files `from..to` (inclusive) of a bot, complete, in the port's own `files` table. */
  bulkFiles(botId: string, from: number, to: number): Promise<void>
  /** Bulk SQL: rows `from..to` (ids) into the user table, and whatever the catalog must know of them. */
  bulkRows(record: TableRecord, from: number, to: number): Promise<void>
  /** Refreshes the planner's statistics after a bulk load. */
  analyze(): Promise<void>
  close(): Promise<void>
}
