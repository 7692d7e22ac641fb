import type { PgMigration } from '../pg-types.js'

/**
 * PostgreSQL schema of the Files API: files (one row per key and owner scope, the latest upload version and the
 * readable content), knowledge bases, and their tags in side tables of one shape (owner, bot, key, value) with a
 * lookup index, so tag filters are index searches; the same model as the SQLite adapter, so filters, sort orders,
 * ties and cursors agree. JSON fields are kept as the text the port wrote (key order preserved).
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, [...postgresAuthMigrations, ...postgresFilesMigrations], 'public')
 * ```
 */
export const postgresFilesMigrations: ReadonlyArray<PgMigration> = [
  {
    id: 'files-0001-files-tags-knowledge-bases',
    async up(sql) {
      await sql`
        CREATE TABLE files (
          id text COLLATE "C" PRIMARY KEY,
          bot_id text COLLATE "C" NOT NULL,
          key text COLLATE "C" NOT NULL,
          owner_scope text COLLATE "C" NOT NULL,
          owner_json text NOT NULL,
          content_type text NOT NULL,
          tags_json text NOT NULL,
          metadata_json text NOT NULL,
          access_policies_json text NOT NULL,
          policy_public boolean NOT NULL,
          policy_integrations boolean NOT NULL,
          index_requested boolean NOT NULL,
          status text COLLATE "C" NOT NULL,
          failed_status_reason text,
          expires_at text COLLATE "C",
          created_at text COLLATE "C" NOT NULL,
          updated_at text COLLATE "C" NOT NULL,
          version integer NOT NULL,
          declared_size bigint NOT NULL,
          content_version integer,
          blob_id text,
          size bigint,
          sha256 text,
          blob_content_type text,
          UNIQUE (bot_id, owner_scope, key)
        )`
      await sql`CREATE INDEX files_bot_created ON files (bot_id, created_at, id)`
      await sql`CREATE INDEX files_bot_updated ON files (bot_id, updated_at, id)`
      await sql`CREATE INDEX files_bot_key ON files (bot_id, key, id)`
      await sql`CREATE INDEX files_bot_status ON files (bot_id, status, id)`
      await sql`CREATE INDEX files_bot_size ON files (bot_id, (coalesce(size, -1)), id)`
      await sql`CREATE INDEX files_expires ON files (expires_at) WHERE expires_at IS NOT NULL`
      await sql`CREATE INDEX files_blob ON files (blob_id) WHERE blob_id IS NOT NULL`
      await sql`
        CREATE TABLE file_tags (
          file_id text COLLATE "C" NOT NULL REFERENCES files (id) ON DELETE CASCADE,
          bot_id text COLLATE "C" NOT NULL,
          tag_key text COLLATE "C" NOT NULL,
          tag_value text COLLATE "C" NOT NULL,
          PRIMARY KEY (file_id, tag_key)
        )`
      await sql`CREATE INDEX file_tags_lookup ON file_tags (bot_id, tag_key, tag_value, file_id)`
      await sql`
        CREATE TABLE knowledge_bases (
          id text COLLATE "C" PRIMARY KEY,
          bot_id text COLLATE "C" NOT NULL,
          name text NOT NULL,
          tags_json text NOT NULL,
          created_at text COLLATE "C" NOT NULL,
          updated_at text COLLATE "C" NOT NULL
        )`
      await sql`CREATE INDEX knowledge_bases_bot_created ON knowledge_bases (bot_id, created_at, id)`
      await sql`
        CREATE TABLE knowledge_base_tags (
          knowledge_base_id text COLLATE "C" NOT NULL REFERENCES knowledge_bases (id) ON DELETE CASCADE,
          bot_id text COLLATE "C" NOT NULL,
          tag_key text COLLATE "C" NOT NULL,
          tag_value text COLLATE "C" NOT NULL,
          PRIMARY KEY (knowledge_base_id, tag_key)
        )`
      await sql`CREATE INDEX knowledge_base_tags_lookup ON knowledge_base_tags (bot_id, tag_key, tag_value, knowledge_base_id)`
    },
  },
  {
    // The indexing request a job serves (its generation), the stack of the last completed indexing, and the
    // configuration given at upsert: the same columns and meaning as SQLite's files-0003.
    id: 'files-0002-indexing',
    async up(sql) {
      await sql`ALTER TABLE files ADD COLUMN index_generation integer NOT NULL DEFAULT 0`
      await sql`ALTER TABLE files ADD COLUMN indexing_stack text`
      await sql`ALTER TABLE files ADD COLUMN indexing_configuration_json text`
    },
  },
]
