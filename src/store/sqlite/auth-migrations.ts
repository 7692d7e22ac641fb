import type { Migration } from './migrations.js'

/**
 * Schema of the workspace, its bots and their access tokens. Tokens are stored as SHA-256 hashes only.
 *
 * @example
 * ```ts
 * runMigrations(db, [...authMigrations, ...filesMigrations])
 * ```
 */
export const authMigrations: ReadonlyArray<Migration> = [
  {
    id: 'auth-0001-workspace-bots-tokens',
    up(db) {
      db.exec(`
        CREATE TABLE workspaces (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE bots (
          id TEXT PRIMARY KEY,
          workspace_id TEXT NOT NULL REFERENCES workspaces(id),
          name TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE TABLE tokens (
          id TEXT PRIMARY KEY,
          hash TEXT NOT NULL UNIQUE,
          bot_id TEXT NOT NULL REFERENCES bots(id),
          role TEXT NOT NULL,
          integration_name TEXT,
          user_id TEXT,
          label TEXT,
          created_at TEXT NOT NULL,
          revoked_at TEXT
        );
        CREATE INDEX tokens_bot ON tokens(bot_id);
      `)
    },
  },
]
