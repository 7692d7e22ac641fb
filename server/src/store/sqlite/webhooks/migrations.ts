import type { Migration } from '../migrations.js'

/**
 * Schema of storage event subscriptions and their deliveries (decision 1411). A delivery keeps the exact body it
 * sends; deleting a subscription deletes its deliveries.
 *
 * @example
 * ```ts
 * runMigrations(db, webhooksMigrations)
 * ```
 */
export const webhooksMigrations: ReadonlyArray<Migration> = [
  {
    id: 'webhooks-0001-subscriptions-and-deliveries',
    up(db) {
      db.exec(`
        CREATE TABLE webhooks (
          id TEXT PRIMARY KEY,
          bot_id TEXT NOT NULL,
          url TEXT NOT NULL,
          types_json TEXT NOT NULL,
          description TEXT NOT NULL,
          disabled INTEGER NOT NULL DEFAULT 0,
          secret TEXT NOT NULL,
          previous_secret TEXT,
          previous_secret_until TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX webhooks_bot ON webhooks (bot_id, id);
        CREATE TABLE webhook_deliveries (
          id TEXT PRIMARY KEY,
          webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
          bot_id TEXT NOT NULL,
          event_id TEXT NOT NULL,
          type TEXT NOT NULL,
          body TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0,
          last_status_code INTEGER,
          last_error TEXT,
          next_attempt_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        -- one delivery per event and subscription, whatever the races
        CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhook_id, event_id);
        CREATE INDEX webhook_deliveries_list ON webhook_deliveries (webhook_id, id);
      `)
    },
  },
]
