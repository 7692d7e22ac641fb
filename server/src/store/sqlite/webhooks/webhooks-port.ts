import type { Clock } from '../../clock.js'
import { newDeliveryId, newWebhookId } from '../../webhooks/ids.js'
import type { AddDeliveryInput, CreateWebhookInput, DeliveryPatch, DeliveryRecord, IdPage, IdPageQuery, WebhookPatch, WebhookRecord } from '../../webhooks/types.js'
import { deliveryColumns, deliveryRowToRecord, idPage, wantsType, webhookColumns, webhookRowToRecord, type DeliveryRow, type WebhookRow } from '../../webhooks/webhook-row.js'
import type { Sqlite } from '../connect.js'
import type { Statement } from 'better-sqlite3'

function sqlValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  if (Array.isArray(value)) return JSON.stringify(value)
  return value
}

/**
 * The `WebhooksPort` on the embedded SQLite database, synchronous (wrap it with `asyncPort`).
 *
 * @example
 * ```ts
 * const webhooks = asyncPort(new SqliteWebhooksStore(db, systemClock), portMethods.webhooks)
 * ```
 */
export class SqliteWebhooksStore {
  constructor(
    private readonly db: Sqlite,
    private readonly now: Clock,
  ) {}

  /** The query every committed file or row change runs (`subscribers`), compiled once on first use (decision 1471). */
  private subscribersStatement: Statement<unknown[]> | undefined

  createWebhook(input: CreateWebhookInput): WebhookRecord {
    const now = this.now()
    const iso = now.toISOString()
    const row = this.db
      .prepare(`INSERT INTO webhooks (id, bot_id, url, types_json, description, disabled, secret, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING *`)
      .get(newWebhookId(now), input.botId, input.url, JSON.stringify(input.types), input.description, input.secret, iso, iso) as WebhookRow
    return webhookRowToRecord(row)
  }

  getWebhook(botId: string, id: string): WebhookRecord | undefined {
    const row = this.db.prepare('SELECT * FROM webhooks WHERE bot_id = ? AND id = ?').get(botId, id) as WebhookRow | undefined
    return row ? webhookRowToRecord(row) : undefined
  }

  listWebhooks(botId: string, query: IdPageQuery): IdPage<WebhookRecord> {
    const rows = this.db
      .prepare('SELECT * FROM webhooks WHERE bot_id = ? AND id > ? ORDER BY id LIMIT ?')
      .all(botId, query.after ?? '', query.pageSize + 1) as WebhookRow[]
    return idPage(rows.map(webhookRowToRecord), query.pageSize)
  }

  countWebhooks(botId: string): number {
    return this.db.prepare('SELECT count(*) FROM webhooks WHERE bot_id = ?').pluck().get(botId) as number
  }

  updateWebhook(botId: string, id: string, patch: WebhookPatch): WebhookRecord | undefined {
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined) as Array<[keyof WebhookPatch, unknown]>
    const sets = entries.map(([key]) => `${webhookColumns[key]} = ?`)
    const row = this.db
      .prepare(`UPDATE webhooks SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE bot_id = ? AND id = ? RETURNING *`)
      .get(...entries.map(([, value]) => sqlValue(value)), this.now().toISOString(), botId, id) as WebhookRow | undefined
    return row ? webhookRowToRecord(row) : undefined
  }

  deleteWebhook(botId: string, id: string): boolean {
    // The deliveries go first: foreign keys may be off on a connection.
    return this.db.transaction(() => {
      if (!this.db.prepare('SELECT 1 FROM webhooks WHERE bot_id = ? AND id = ?').get(botId, id)) return false
      this.db.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?').run(id)
      this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id)
      return true
    })()
  }

  subscribers(botId: string, type: string): WebhookRecord[] {
    this.subscribersStatement ??= this.db.prepare('SELECT * FROM webhooks WHERE bot_id = ? AND disabled = 0 ORDER BY id')
    const rows = this.subscribersStatement.all(botId) as WebhookRow[]
    return rows.map(webhookRowToRecord).filter((record) => wantsType(record, type))
  }

  addDelivery(input: AddDeliveryInput): DeliveryRecord {
    const now = this.now()
    const iso = now.toISOString()
    const row = this.db
      .prepare(`INSERT INTO webhook_deliveries (id, webhook_id, bot_id, event_id, type, body, status, attempts, next_attempt_at, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
        ON CONFLICT (webhook_id, event_id) DO UPDATE SET updated_at = updated_at RETURNING *`)
      .get(newDeliveryId(now), input.webhookId, input.botId, input.eventId, input.type, input.body, iso, iso, iso) as DeliveryRow
    return deliveryRowToRecord(row)
  }

  getDelivery(id: string): DeliveryRecord | undefined {
    const row = this.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined
    return row ? deliveryRowToRecord(row) : undefined
  }

  updateDelivery(id: string, patch: DeliveryPatch): DeliveryRecord | undefined {
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined) as Array<[keyof DeliveryPatch, unknown]>
    const sets = entries.map(([key]) => `${deliveryColumns[key]} = ?`)
    const row = this.db
      .prepare(`UPDATE webhook_deliveries SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ? RETURNING *`)
      .get(...entries.map(([, value]) => sqlValue(value)), this.now().toISOString(), id) as DeliveryRow | undefined
    return row ? deliveryRowToRecord(row) : undefined
  }

  listDeliveries(webhookId: string, query: IdPageQuery): IdPage<DeliveryRecord> {
    const rows = (
      query.after === undefined
        ? this.db.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?').all(webhookId, query.pageSize + 1)
        : this.db.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ? AND id < ? ORDER BY id DESC LIMIT ?').all(webhookId, query.after, query.pageSize + 1)
    ) as DeliveryRow[]
    return idPage(rows.map(deliveryRowToRecord), query.pageSize)
  }
}

