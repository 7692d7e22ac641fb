import type { Migration } from '../migrations.js'

/**
 * Schema of the Files API: files (one row per key and owner scope, with its current content and the latest
 * upload version), their tags (a side table so tag filters run in SQL with indexes), and knowledge bases.
 *
 * @example
 * ```ts
 * runMigrations(db, [...authMigrations, ...filesMigrations])
 * ```
 */
export const filesMigrations: ReadonlyArray<Migration> = [
  {
    id: 'files-0001-files-tags-knowledge-bases',
    up(db) {
      db.exec(`
        CREATE TABLE files (
          id TEXT PRIMARY KEY,
          bot_id TEXT NOT NULL,
          key TEXT NOT NULL,
          -- '' for files of the bot or of members, the integration name for files an integration owns:
          -- keys are unique per bot and per integration owner.
          owner_scope TEXT NOT NULL,
          owner_json TEXT NOT NULL,
          content_type TEXT NOT NULL,
          tags_json TEXT NOT NULL,
          metadata_json TEXT NOT NULL,
          access_policies_json TEXT NOT NULL,
          policy_public INTEGER NOT NULL,
          policy_integrations INTEGER NOT NULL,
          index_requested INTEGER NOT NULL,
          status TEXT NOT NULL,
          failed_status_reason TEXT,
          expires_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          -- latest version started by upsertFile, and the size it declared
          version INTEGER NOT NULL,
          declared_size INTEGER NOT NULL,
          -- the readable content: which version it is, its blob, size, hash and content type
          content_version INTEGER,
          blob_id TEXT,
          size INTEGER,
          sha256 TEXT,
          blob_content_type TEXT,
          UNIQUE (bot_id, owner_scope, key)
        );
        CREATE INDEX files_bot_created ON files (bot_id, created_at, id);
        CREATE INDEX files_bot_updated ON files (bot_id, updated_at, id);
        CREATE INDEX files_bot_key ON files (bot_id, key, id);
        CREATE INDEX files_bot_status ON files (bot_id, status, id);
        CREATE INDEX files_bot_size ON files (bot_id, coalesce(size, -1), id);
        CREATE INDEX files_expires ON files (expires_at) WHERE expires_at IS NOT NULL;
        CREATE INDEX files_blob ON files (blob_id) WHERE blob_id IS NOT NULL;

        CREATE TABLE file_tags (
          file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE,
          bot_id TEXT NOT NULL,
          tag_key TEXT NOT NULL,
          tag_value TEXT NOT NULL,
          PRIMARY KEY (file_id, tag_key)
        );
        CREATE INDEX file_tags_lookup ON file_tags (bot_id, tag_key, tag_value, file_id);

        CREATE TABLE knowledge_bases (
          id TEXT PRIMARY KEY,
          bot_id TEXT NOT NULL,
          name TEXT NOT NULL,
          tags_json TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX knowledge_bases_bot_created ON knowledge_bases (bot_id, created_at, id);

        CREATE TABLE knowledge_base_tags (
          file_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
          bot_id TEXT NOT NULL,
          tag_key TEXT NOT NULL,
          tag_value TEXT NOT NULL,
          PRIMARY KEY (file_id, tag_key)
        );
        CREATE INDEX knowledge_base_tags_lookup ON knowledge_base_tags (bot_id, tag_key, tag_value, file_id);
      `)
    },
  },
  {
    // One tag model: every tag side table names its owner column after the owner (file_tags.file_id,
    // knowledge_base_tags.knowledge_base_id, table_tags.table_id).
    id: 'files-0002-knowledge-base-tags-owner-column',
    up(db) {
      db.exec(`
        ALTER TABLE knowledge_base_tags RENAME COLUMN file_id TO knowledge_base_id;
        DROP INDEX knowledge_base_tags_lookup;
        CREATE INDEX knowledge_base_tags_lookup ON knowledge_base_tags (bot_id, tag_key, tag_value, knowledge_base_id);
      `)
    },
  },
  {
    // Indexing: each request to (re)index a file bumps its generation, so a job for an older request cannot
    // overwrite a newer one; the stack is set once indexing completes; the upsert's indexing configuration is kept
    // for the job that runs after the upload.
    id: 'files-0003-indexing',
    up(db) {
      db.exec(`
        ALTER TABLE files ADD COLUMN index_generation INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE files ADD COLUMN indexing_stack TEXT;
        ALTER TABLE files ADD COLUMN indexing_configuration_json TEXT;
      `)
    },
  },
]
