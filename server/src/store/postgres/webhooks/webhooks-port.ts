import type { Clock } from '../../clock.js'
import { newDeliveryId, newWebhookId } from '../../webhooks/ids.js'
import type { WebhooksPort } from '../../webhooks/webhooks-port.js'
import type { AddDeliveryInput, CreateWebhookInput, DeliveryPatch, DeliveryRecord, IdPage, IdPageQuery, WebhookPatch, WebhookRecord } from '../../webhooks/types.js'
import { deliveryColumns, deliveryRowToRecord, idPage, wantsType, webhookColumns, webhookRowToRecord, type DeliveryRow, type WebhookRow } from '../../webhooks/webhook-row.js'
import type { PgScope } from '../pg-scope.js'

/** The columns and values of a patch, for `sql(values)` in an UPDATE. */
function columnsOf<K extends string>(patch: Partial<Record<K, unknown>>, names: Record<K, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(patch) as Array<[K, unknown]>) {
    if (value === undefined) continue
    values[names[key]] = Array.isArray(value) ? JSON.stringify(value) : value
  }
  return values
}

/**
 * The `WebhooksPort` on PostgreSQL: single statements, so each joins the open transaction when there is one.
 *
 * @example
 * ```ts
 * const webhooks = new PgWebhooksPort(rootScope(sql), systemClock)
 * ```
 */
export class PgWebhooksPort implements WebhooksPort {
  constructor(
    private readonly scope: PgScope,
    private readonly now: Clock,
  ) {}

  async createWebhook(input: CreateWebhookInput): Promise<WebhookRecord> {
    const now = this.now()
    const iso = now.toISOString()
    const [row] = await this.scope.sql<WebhookRow[]>`
      INSERT INTO webhooks (id, bot_id, url, types_json, description, disabled, secret, created_at, updated_at)
      VALUES (${newWebhookId(now)}, ${input.botId}, ${input.url}, ${JSON.stringify(input.types)}, ${input.description}, false, ${input.secret}, ${iso}, ${iso})
      RETURNING *`
    return webhookRowToRecord(row!)
  }

  async getWebhook(botId: string, id: string): Promise<WebhookRecord | undefined> {
    const [row] = await this.scope.sql<WebhookRow[]>`SELECT * FROM webhooks WHERE bot_id = ${botId} AND id = ${id}`
    return row ? webhookRowToRecord(row) : undefined
  }

  async listWebhooks(botId: string, query: IdPageQuery): Promise<IdPage<WebhookRecord>> {
    const rows = await this.scope.sql<WebhookRow[]>`
      SELECT * FROM webhooks WHERE bot_id = ${botId} AND id > ${query.after ?? ''} ORDER BY id LIMIT ${query.pageSize + 1}`
    return idPage(rows.map(webhookRowToRecord), query.pageSize)
  }

  async countWebhooks(botId: string): Promise<number> {
    const [row] = await this.scope.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM webhooks WHERE bot_id = ${botId}`
    return row!.n
  }

  async updateWebhook(botId: string, id: string, patch: WebhookPatch): Promise<WebhookRecord | undefined> {
    const sql = this.scope.sql
    const values = { ...columnsOf(patch, webhookColumns), updated_at: this.now().toISOString() }
    const [row] = await sql<WebhookRow[]>`UPDATE webhooks SET ${sql(values)} WHERE bot_id = ${botId} AND id = ${id} RETURNING *`
    return row ? webhookRowToRecord(row) : undefined
  }

  async deleteWebhook(botId: string, id: string): Promise<boolean> {
    const rows = await this.scope.sql`DELETE FROM webhooks WHERE bot_id = ${botId} AND id = ${id} RETURNING id`
    return rows.length > 0
  }

  async subscribers(botId: string, type: string): Promise<WebhookRecord[]> {
    const rows = await this.scope.sql<WebhookRow[]>`SELECT * FROM webhooks WHERE bot_id = ${botId} AND NOT disabled ORDER BY id`
    return rows.map(webhookRowToRecord).filter((record) => wantsType(record, type))
  }

  async addDelivery(input: AddDeliveryInput): Promise<DeliveryRecord> {
    const now = this.now()
    const iso = now.toISOString()
    const [row] = await this.scope.sql<DeliveryRow[]>`
      INSERT INTO webhook_deliveries (id, webhook_id, bot_id, event_id, type, body, status, attempts, next_attempt_at, created_at, updated_at)
      VALUES (${newDeliveryId(now)}, ${input.webhookId}, ${input.botId}, ${input.eventId}, ${input.type}, ${input.body}, 'pending', 0, ${iso}, ${iso}, ${iso})
      ON CONFLICT (webhook_id, event_id) DO UPDATE SET updated_at = webhook_deliveries.updated_at RETURNING *`
    return deliveryRowToRecord(row!)
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    const [row] = await this.scope.sql<DeliveryRow[]>`SELECT * FROM webhook_deliveries WHERE id = ${id}`
    return row ? deliveryRowToRecord(row) : undefined
  }

  async updateDelivery(id: string, patch: DeliveryPatch): Promise<DeliveryRecord | undefined> {
    const sql = this.scope.sql
    const values = { ...columnsOf(patch, deliveryColumns), updated_at: this.now().toISOString() }
    const [row] = await sql<DeliveryRow[]>`UPDATE webhook_deliveries SET ${sql(values)} WHERE id = ${id} RETURNING *`
    return row ? deliveryRowToRecord(row) : undefined
  }

  async listDeliveries(webhookId: string, query: IdPageQuery): Promise<IdPage<DeliveryRecord>> {
    const sql = this.scope.sql
    const rows =
      query.after === undefined
        ? await sql<DeliveryRow[]>`SELECT * FROM webhook_deliveries WHERE webhook_id = ${webhookId} ORDER BY id DESC LIMIT ${query.pageSize + 1}`
        : await sql<DeliveryRow[]>`SELECT * FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND id < ${query.after} ORDER BY id DESC LIMIT ${query.pageSize + 1}`
    return idPage(rows.map(deliveryRowToRecord), query.pageSize)
  }
}
