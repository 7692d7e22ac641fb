import { Hono } from 'hono'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  retryWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
  WEBHOOKS_PER_BOT,
} from 'botshelf/api'
import { decodeCursor, encodeCursor, queryFingerprint } from '../http/cursor.js'
import type { AppEnv, AppServices } from '../http/env.js'
import { registerRoute } from '../http/register-route.js'
import { ServiceError } from '../http/service-error.js'
import type { WebhookRecord } from '../store/index.js'
import { assertHostAllowed } from './host-policy.js'
import { newWebhookSecret, PREVIOUS_SECRET_HOURS } from './new-secret.js'
import { requireWebhooksAccess } from './permissions.js'
import { queueDeliveryAttempt } from './record-events.js'
import { toWireDelivery, toWireWebhook, toWireWebhookWithSecret } from './wire.js'

const isString = (value: unknown): value is string => typeof value === 'string'
const PAGE_DEFAULT = 20

async function findWebhook(services: AppServices, botId: string, id: string): Promise<WebhookRecord> {
  const webhook = await services.backend.webhooks.getWebhook(botId, id)
  if (!webhook) throw new ServiceError('ResourceNotFound', `No webhook with id ${JSON.stringify(id)} in bot "${botId}"`, { id })
  return webhook
}

function pageMeta(services: AppServices, fingerprint: string, next: string | undefined): { nextToken?: string } {
  return next !== undefined ? { nextToken: encodeCursor(services.signingKey, fingerprint, next) } : {}
}

/**
 * The Webhooks API (storage event subscriptions, decision 1412): create, list, get, update, delete, rotate the
 * secret, list deliveries and retry one. The secret is answered by create and rotate only.
 *
 * @example
 * ```ts
 * hono.route('/', webhooksRoutes())
 * ```
 */
export function webhooksRoutes(): Hono<AppEnv> {
  const router = new Hono<AppEnv>()

  registerRoute(router, {
    operation: createWebhook,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'manage')
      assertHostAllowed('url', input.body.url, services.webhooks.allowedHosts)
      const webhook = await services.backend.transaction(async (tx) => {
        const count = await tx.webhooks.countWebhooks(principal.botId)
        if (count >= WEBHOOKS_PER_BOT) throw new ServiceError('InvalidPayload', `A bot has at most ${WEBHOOKS_PER_BOT} webhooks; bot "${principal.botId}" has ${count}: delete one first`)
        return tx.webhooks.createWebhook({
          botId: principal.botId,
          url: input.body.url,
          types: [...new Set(input.body.types ?? [])],
          description: input.body.description ?? '',
          secret: newWebhookSecret(),
        })
      })
      return { webhook: toWireWebhookWithSecret(webhook) }
    },
  })

  registerRoute(router, {
    operation: listWebhooks,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'read')
      const fingerprint = queryFingerprint('listWebhooks', { pageSize: input.query.pageSize })
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isString) : undefined
      const page = await services.backend.webhooks.listWebhooks(principal.botId, { pageSize: input.query.pageSize ?? PAGE_DEFAULT, ...(after !== undefined ? { after } : {}) })
      return { webhooks: page.items.map(toWireWebhook), meta: pageMeta(services, fingerprint, page.next) }
    },
  })

  registerRoute(router, {
    operation: getWebhook,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'read')
      return { webhook: toWireWebhook(await findWebhook(services, principal.botId, input.params.id)) }
    },
  })

  registerRoute(router, {
    operation: updateWebhook,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'manage')
      const { url, types, description, disabled } = input.body
      if (url !== undefined) assertHostAllowed('url', url, services.webhooks.allowedHosts)
      const updated = await services.backend.webhooks.updateWebhook(principal.botId, input.params.id, {
        ...(url !== undefined ? { url } : {}),
        ...(types !== undefined ? { types: [...new Set(types)] } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(disabled !== undefined ? { disabled } : {}),
      })
      if (!updated) throw new ServiceError('ResourceNotFound', `No webhook with id ${JSON.stringify(input.params.id)} in bot "${principal.botId}"`, { id: input.params.id })
      return { webhook: toWireWebhook(updated) }
    },
  })

  registerRoute(router, {
    operation: deleteWebhook,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'manage')
      if (!(await services.backend.webhooks.deleteWebhook(principal.botId, input.params.id))) {
        throw new ServiceError('ResourceNotFound', `No webhook with id ${JSON.stringify(input.params.id)} in bot "${principal.botId}"`, { id: input.params.id })
      }
      return {}
    },
  })

  registerRoute(router, {
    operation: rotateWebhookSecret,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'manage')
      const current = await findWebhook(services, principal.botId, input.params.id)
      const until = new Date(services.now().getTime() + PREVIOUS_SECRET_HOURS * 3_600_000).toISOString()
      const rotated = await services.backend.webhooks.updateWebhook(principal.botId, current.id, { secret: newWebhookSecret(), previousSecret: current.secret, previousSecretUntil: until })
      if (!rotated) throw new ServiceError('ResourceNotFound', `No webhook with id ${JSON.stringify(input.params.id)} in bot "${principal.botId}"`, { id: input.params.id })
      return { webhook: toWireWebhookWithSecret(rotated) }
    },
  })

  registerRoute(router, {
    operation: listWebhookDeliveries,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'read')
      const webhook = await findWebhook(services, principal.botId, input.params.id)
      const fingerprint = queryFingerprint('listWebhookDeliveries', { id: webhook.id, pageSize: input.query.pageSize })
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isString) : undefined
      const page = await services.backend.webhooks.listDeliveries(webhook.id, { pageSize: input.query.pageSize ?? PAGE_DEFAULT, ...(after !== undefined ? { after } : {}) })
      return { deliveries: page.items.map(toWireDelivery), meta: pageMeta(services, fingerprint, page.next) }
    },
  })

  registerRoute(router, {
    operation: retryWebhookDelivery,
    handle: async ({ input, principal, services }) => {
      requireWebhooksAccess(principal, 'manage')
      const webhook = await findWebhook(services, principal.botId, input.params.id)
      const delivery = await services.backend.transaction(async (tx) => {
        const found = await tx.webhooks.getDelivery(input.params.deliveryId)
        if (!found || found.webhookId !== webhook.id) {
          throw new ServiceError('ResourceNotFound', `No delivery with id ${JSON.stringify(input.params.deliveryId)} for webhook ${JSON.stringify(webhook.id)}`, { id: input.params.deliveryId })
        }
        const now = services.now().toISOString()
        const pending = await tx.webhooks.updateDelivery(found.id, { status: 'pending', nextAttemptAt: now })
        await queueDeliveryAttempt(tx, found.id, found.attempts)
        return pending!
      })
      services.webhooks.committed()
      return { delivery: toWireDelivery(delivery) }
    },
  })

  return router
}
