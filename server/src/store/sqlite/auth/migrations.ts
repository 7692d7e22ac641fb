import type { Migration } from '../migrations.js'

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
  {
    // Workspace-wide member tokens (decision 0208): a token is bound to exactly one bot OR to the workspace.
    // SQLite cannot drop NOT NULL from bot_id in place, so the table is rebuilt; every existing token keeps its
    // id, hash and bot binding (workspace_id stays NULL for them).
    id: 'auth-0002-workspace-tokens',
    up(db) {
      db.exec(`
        CREATE TABLE tokens_next (
          id TEXT PRIMARY KEY,
          hash TEXT NOT NULL UNIQUE,
          bot_id TEXT REFERENCES bots(id),
          workspace_id TEXT REFERENCES workspaces(id),
          role TEXT NOT NULL,
          integration_name TEXT,
          user_id TEXT,
          label TEXT,
          created_at TEXT NOT NULL,
          revoked_at TEXT,
          CHECK ((bot_id IS NULL) <> (workspace_id IS NULL))
        );
        INSERT INTO tokens_next (id, hash, bot_id, workspace_id, role, integration_name, user_id, label, created_at, revoked_at)
          SELECT id, hash, bot_id, NULL, role, integration_name, user_id, label, created_at, revoked_at FROM tokens;
        DROP TABLE tokens;
        ALTER TABLE tokens_next RENAME TO tokens;
        CREATE INDEX tokens_bot ON tokens(bot_id);
        CREATE INDEX tokens_workspace ON tokens(workspace_id);
      `)
    },
  },
  {
    // The signing key moves into the database so that every server on a dataset signs and checks alike.
    id: 'auth-0003-service-secrets',
    up(db) {
      db.exec(`
        CREATE TABLE service_secrets (
          name TEXT PRIMARY KEY,
          value BLOB NOT NULL,
          created_at TEXT NOT NULL
        );
      `)
    },
  },
]
