import type { PgMigration } from '../pg-types.js'

/**
 * PostgreSQL schema of storage event subscriptions and their deliveries (decision 1411), as on SQLite.
 *
 * @example
 * ```ts
 * await runPgMigrations(sql, postgresWebhooksMigrations, 'public')
 * ```
 */
export const postgresWebhooksMigrations: ReadonlyArray<PgMigration> = [
  {
    id: 'webhooks-0001-subscriptions-and-deliveries',
    async up(sql) {
      await sql`
        CREATE TABLE webhooks (
          id text COLLATE "C" PRIMARY KEY,
          bot_id text COLLATE "C" NOT NULL,
          url text NOT NULL,
          types_json text NOT NULL,
          description text NOT NULL,
          disabled boolean NOT NULL DEFAULT false,
          secret text NOT NULL,
          previous_secret text,
          previous_secret_until text,
          created_at text NOT NULL,
          updated_at text NOT NULL
        )`
      await sql`CREATE INDEX webhooks_bot ON webhooks (bot_id, id)`
      await sql`
        CREATE TABLE webhook_deliveries (
          id text COLLATE "C" PRIMARY KEY,
          webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
          bot_id text COLLATE "C" NOT NULL,
          event_id text COLLATE "C" NOT NULL,
          type text NOT NULL,
          body text NOT NULL,
          status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
          attempts integer NOT NULL DEFAULT 0,
          last_status_code integer,
          last_error text,
          next_attempt_at text,
          created_at text NOT NULL,
          updated_at text NOT NULL
        )`
      await sql`CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, event_id)`
      await sql`CREATE INDEX webhook_deliveries_list ON webhook_deliveries (webhook_id, id)`
    },
  },
]
