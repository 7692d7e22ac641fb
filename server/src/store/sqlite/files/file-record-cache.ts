import type { Statement } from 'better-sqlite3'
import type { FileRecord } from '../../files/types.js'
import { DataVersionWatch } from '../data-version-watch.js'
import type { Sqlite } from '../connect.js'
import { BoundedMap } from 'botshelf/api'

/** How many lookups (keys and ids together) are kept before the memory is cleared and refilled. */
const DEFAULT_CAPACITY = 4_096

/**
 * The files the repository's point reads found (`getByKey`, `getById`, `getAnyById`), kept in memory and answered
 * from it only while provably unchanged (decision 1231). Every lookup first reads two numbers of the connection:
 * `SELECT total_changes()` (rows this connection inserted, updated or deleted, in any table, triggers and cascades
 * included) and the connection's {@link DataVersionWatch} (commits of other connections). When either moved since
 * the memory was filled, all of it is dropped: a hit is therefore the database's state as of this lookup's own
 * checks. Both numbers are read before the loader's statement runs, so what is kept is never older than them.
 *
 * What is kept is exactly what the loader read, without any expiry condition (the caller applies it at each read
 * with its clock) and frozen (`frozenFileRecord`). Not kept: anything inside a transaction (it may roll back; such
 * lookups neither read nor fill the memory), and empty answers (probes of absent files cannot push present ones
 * out). At most `capacity` lookups are kept; past that the memory is cleared and refilled.
 *
 * @example
 * ```ts
 * const cache = new FileRecordCache(db)
 * const files = cache.filesOfKey(botId, key, () => loadRowsOfKey(botId, key).map(frozenFileRecord))
 * const file = cache.fileOfId(id, () => loadRowOfId(id))
 * ```
 */
export class FileRecordCache {
  private readonly entries: BoundedMap<string, ReadonlyArray<FileRecord> | FileRecord>
  private readonly totalChanges: Statement<[]>
  private readonly watch: DataVersionWatch
  /** The connection's `total_changes()` and the watch's epoch when `entries` were read. */
  private changes: number
  private epoch: number

  constructor(
    private readonly db: Sqlite,
    capacity = DEFAULT_CAPACITY,
  ) {
    this.entries = new BoundedMap(capacity, 'clear')
    this.totalChanges = db.prepare<[]>('SELECT total_changes()').pluck()
    this.watch = DataVersionWatch.of(db)
    this.changes = this.totalChanges.get() as number
    this.epoch = this.watch.read()
  }

  /**
   * The files of a bot's key (every owner scope, expired ones included), from memory when nothing changed since they
   * were read, else from `load`.
   *
   * @example
   * ```ts
   * cache.filesOfKey(botId, 'a.txt', () => rows.map(frozenFileRecord)).filter((file) => unexpired(file, nowIso))
   * ```
   */
  filesOfKey(botId: string, key: string, load: () => ReadonlyArray<FileRecord>): ReadonlyArray<FileRecord> {
    // The bot id's length first, so no other (bot, key) pair spells the same name; ids are kept under `i`.
    return this.lookup(`k${botId.length}:${botId}${key}`, load, (files) => files.length > 0) as ReadonlyArray<FileRecord>
  }

  /**
   * The file with this id (whatever its bot, expired or not), from memory when nothing changed since it was read,
   * else from `load`.
   *
   * @example
   * ```ts
   * cache.fileOfId('file_01K...', () => row && frozenFileRecord(row))
   * ```
   */
  fileOfId(id: string, load: () => FileRecord | undefined): FileRecord | undefined {
    return this.lookup(`i${id}`, load, (file) => file !== undefined) as FileRecord | undefined
  }

  private lookup<T extends ReadonlyArray<FileRecord> | FileRecord | undefined>(name: string, load: () => T, keep: (value: T) => boolean): T {
    // Uncommitted rows may still roll back: a transaction neither reads nor fills the memory.
    if (this.db.inTransaction) return load()
    const changes = this.totalChanges.get() as number
    const epoch = this.watch.read()
    if (changes !== this.changes || epoch !== this.epoch) {
      this.changes = changes
      this.epoch = epoch
      if (this.entries.size > 0) this.entries.clear()
    } else {
      const kept = this.entries.get(name)
      if (kept !== undefined) return kept as T
    }
    const value = load()
    if (keep(value)) {
      this.entries.set(name, value as ReadonlyArray<FileRecord> | FileRecord)
    }
    return value
  }
}
