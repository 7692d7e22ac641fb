import type { DatasetPartName, DatasetRecord } from './dataset-parts.js'

/**
 * The dataset port: the records of every part of a dataset (see `datasetParts`), read in keyset pages and written
 * back as they are, ids, hashes and times kept. What `botshelf export` reads and `botshelf import` writes (inside
 * one `backend.transaction`, so a failed import leaves nothing). Not for the service: it bypasses every rule of the
 * other ports.
 *
 * @example
 * ```ts
 * const page = await backend.dataset.readPage('bots', { limit: 500 })
 * await target.transaction((tx) => tx.dataset.writeRecords('bots', page.records))
 * ```
 */
export interface DatasetPort {
  /** One page of a part in key order, after the key values of the previous page's last record. */
  readPage(part: DatasetPartName, query: { after?: ReadonlyArray<string | number>; limit: number }): Promise<{ records: DatasetRecord[] }>
  /** How many records a part holds. */
  count(part: DatasetPartName): Promise<number>
  /** Inserts records of a part as they are (a record whose key exists is refused by the database). */
  writeRecords(part: DatasetPartName, records: ReadonlyArray<DatasetRecord>): Promise<void>
  /** True when the dataset holds nothing an import could collide with: no workspace, bot, token, file, table or job. */
  isEmpty(): Promise<boolean>
}
