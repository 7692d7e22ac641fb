import type { PgMigration } from '../pg-types.js'

/**
 * PostgreSQL schema of the workspace, its bots, their tokens (SHA-256 hashes only) and the service's secrets
 * (the signing key every server of the dataset shares). Times are ISO 8601 strings with milliseconds, exactly as
 * the clock wrote them, and every text a list sorts on compares byte-wise (`COLLATE "C"`), as on SQLite.
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, postgresAuthMigrations, 'public')
 * ```
 */
export const postgresAuthMigrations: ReadonlyArray<PgMigration> = [
  {
    id: 'auth-0001-workspace-bots-tokens-secrets',
    async up(sql) {
      await sql`
        CREATE TABLE workspaces (
          id text COLLATE "C" PRIMARY KEY,
          name text NOT NULL,
          -- the single workspace ensureWorkspace creates; the unique index makes two servers agree on it
          is_default boolean NOT NULL DEFAULT true,
          created_at text COLLATE "C" NOT NULL
        )`
      await sql`CREATE UNIQUE INDEX workspaces_default ON workspaces (is_default) WHERE is_default`
      await sql`
        CREATE TABLE bots (
          id text COLLATE "C" PRIMARY KEY,
          workspace_id text COLLATE "C" NOT NULL REFERENCES workspaces (id),
          name text NOT NULL,
          created_at text COLLATE "C" NOT NULL
        )`
      await sql`CREATE INDEX bots_created ON bots (created_at, id)`
      await sql`
        CREATE TABLE tokens (
          id text COLLATE "C" PRIMARY KEY,
          hash text NOT NULL UNIQUE,
          bot_id text COLLATE "C" REFERENCES bots (id),
          workspace_id text COLLATE "C" REFERENCES workspaces (id),
          role text NOT NULL,
          integration_name text,
          user_id text,
          label text,
          created_at text COLLATE "C" NOT NULL,
          revoked_at text,
          CHECK ((bot_id IS NULL) <> (workspace_id IS NULL))
        )`
      await sql`CREATE INDEX tokens_bot ON tokens (bot_id)`
      await sql`CREATE INDEX tokens_workspace ON tokens (workspace_id)`
      await sql`
        CREATE TABLE service_secrets (
          name text PRIMARY KEY,
          value bytea NOT NULL,
          created_at text NOT NULL
        )`
    },
  },
]
