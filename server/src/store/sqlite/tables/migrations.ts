import type { Migration } from '../migrations.js'
import { ensureStaleIndex, hasRowVectors } from './row-vectors.js'

/**
 * Schema of the tables store: the catalog of tables (one row per user table, with its normalized
 * JSON schema and the map column → SQLite column) and the table jobs. Each user table's rows live in
 * their own SQLite table `ut_<id>`, created by the store, not by a migration.
 *
 * @example
 * ```ts
 * runMigrations(db, [...authMigrations, ...filesMigrations, ...tablesMigrations])
 * ```
 */
export const tablesMigrations: ReadonlyArray<Migration> = [
  {
    id: 'tables-0001-catalog',
    up: (db) => {
      db.exec(`
        CREATE TABLE tables_catalog (
          id TEXT PRIMARY KEY,
          bot_id TEXT NOT NULL,
          name TEXT NOT NULL,
          physical TEXT NOT NULL UNIQUE,
          schema_json TEXT NOT NULL,
          physical_json TEXT NOT NULL,
          next_column INTEGER NOT NULL,
          factor INTEGER NOT NULL DEFAULT 1,
          frozen INTEGER NOT NULL DEFAULT 0,
          key_column TEXT,
          tags_json TEXT NOT NULL DEFAULT '{}',
          is_compute_enabled INTEGER NOT NULL DEFAULT 0,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          UNIQUE (bot_id, name)
        );
        CREATE INDEX tables_catalog_by_bot ON tables_catalog (bot_id, created_at, id);
        CREATE TABLE tables_jobs (
          id TEXT PRIMARY KEY,
          bot_id TEXT NOT NULL,
          table_id TEXT NOT NULL,
          type TEXT NOT NULL,
          status TEXT NOT NULL,
          progress REAL NOT NULL DEFAULT 0,
          input_file_id TEXT,
          output_file_id TEXT,
          error TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX tables_jobs_by_table ON tables_jobs (table_id, created_at);
      `)
    },
  },
  {
    // The resume point of a background import: rows of the input file committed so far.
    id: 'tables-0002-job-rows-committed',
    up: (db) => {
      db.exec('ALTER TABLE tables_jobs ADD COLUMN rows_committed INTEGER NOT NULL DEFAULT 0')
    },
  },
  {
    // One tag model: table tags get a side table like files and knowledge bases, so tag filters use an index.
    id: 'tables-0003-table-tags',
    up: (db) => {
      db.exec(`
        CREATE TABLE table_tags (
          table_id TEXT NOT NULL REFERENCES tables_catalog(id) ON DELETE CASCADE,
          bot_id TEXT NOT NULL,
          tag_key TEXT NOT NULL,
          tag_value TEXT NOT NULL,
          PRIMARY KEY (table_id, tag_key)
        );
        CREATE INDEX table_tags_lookup ON table_tags (bot_id, tag_key, tag_value, table_id);
        INSERT INTO table_tags (table_id, bot_id, tag_key, tag_value)
          SELECT c.id, c.bot_id, t.key, t.value FROM tables_catalog c, json_each(c.tags_json) t;
      `)
    },
  },
  {
    // The sweep of stale rows tells a fully embedded table without reading its rows (decision 1479): every side
    // table of row vectors made before gets the index new ones are made with.
    id: 'tables-0004-row-vector-stale-index',
    up: (db) => {
      const physicals = db.prepare('SELECT physical FROM tables_catalog').pluck().all() as string[]
      for (const physical of physicals) if (hasRowVectors(db, physical)) ensureStaleIndex(db, physical)
    },
  },
]
