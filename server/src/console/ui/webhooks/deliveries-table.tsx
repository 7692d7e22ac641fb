import { useEffect, useState } from 'preact/hooks'
import type { Client } from 'botshelf/client'
import { useSession } from '../core/session-context.js'
import { formatTime } from '../core/format.js'
import { EmptyState } from '../components/empty-state.js'

/** A delivery as `GET /v1/webhooks/{id}/deliveries` lists it. */
export type DeliveryRow = Awaited<ReturnType<Client['listWebhookDeliveries']>>['deliveries'][number]

/**
 * A subscription's deliveries, newest first (as the API orders them), with a Retry button for writers and a
 * Refresh button.
 *
 * @example
 * ```tsx
 * <DeliveriesTable webhookId="wh_1" onError={setError} />
 * ```
 */
export function DeliveriesTable({ webhookId, onError }: { webhookId: string; onError: (error: unknown) => void }) {
  const { api, can } = useSession()
  const [deliveries, setDeliveries] = useState<DeliveryRow[] | undefined>()
  const [reloads, setReloads] = useState(0)
  useEffect(() => {
    api.client
      .listWebhookDeliveries({ id: webhookId })
      .then((answer) => setDeliveries(answer.deliveries))
      .catch(onError)
  }, [webhookId, reloads])
  const retry = (delivery: DeliveryRow) =>
    api.client
      .retryWebhookDelivery({ id: webhookId, deliveryId: delivery.id })
      .then(() => setReloads((n) => n + 1))
      .catch(onError)
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <button type="button" onClick={() => setReloads((n) => n + 1)}>
        Refresh deliveries
      </button>
      {deliveries && deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet." />
      ) : (
        <table class="grid" data-testid="deliveries-table">
          <caption class="visually-hidden">Deliveries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last status code</th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries?.map((delivery) => (
              <tr key={delivery.id} data-status={delivery.status}>
                <td>
                  <code>{delivery.eventId}</code>
                </td>
                <td>{delivery.type}</td>
                <td>
                  {delivery.status}
                  {delivery.status === 'pending' && delivery.nextAttemptAt ? ` (next ${formatTime(delivery.nextAttemptAt)})` : ''}
                </td>
                <td>{delivery.attempts}</td>
                <td>{delivery.lastStatusCode ?? '—'}</td>
                <td>{delivery.lastError ?? '—'}</td>
                <td>{formatTime(delivery.createdAt)}</td>
                <td>
                  {can.manageWebhooks && (
                    <button type="button" aria-label={`Retry ${delivery.type} ${delivery.eventId}`} onClick={() => void retry(delivery)}>
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}
