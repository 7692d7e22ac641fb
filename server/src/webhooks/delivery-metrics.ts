import { Counter, Histogram, type Registry } from 'prom-client'

/**
 * The metrics of storage event delivery: deliveries by type and outcome, attempts by outcome, and the latency
 * from the commit that recorded an event to its successful delivery.
 *
 * @example
 * ```ts
 * const metrics = new DeliveryMetrics(services.metrics?.registry)
 * metrics.attempt('file.created', 'succeeded', 0.012)
 * ```
 */
export class DeliveryMetrics {
  private readonly deliveries?: Counter<'type' | 'outcome'>
  private readonly attempts?: Counter<'outcome'>
  private readonly latency?: Histogram<'type'>

  constructor(registry?: Registry) {
    if (!registry) return
    const registers = [registry]
    this.deliveries = new Counter({ name: 'botshelf_webhook_deliveries_total', help: 'Storage event deliveries that ended, by event type and outcome (succeeded, failed).', labelNames: ['type', 'outcome'], registers })
    this.attempts = new Counter({ name: 'botshelf_webhook_attempts_total', help: 'Delivery attempts, by outcome (succeeded, retried, failed).', labelNames: ['outcome'], registers })
    this.latency = new Histogram({
      name: 'botshelf_webhook_delivery_seconds',
      help: 'Seconds from the commit that recorded a storage event to its successful delivery, by event type.',
      labelNames: ['type'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120, 600, 3600],
      registers,
    })
  }

  /**
   * Counts one attempt and, when it ends the delivery, the delivery (and its latency when it succeeded).
   *
   * @example
   * ```ts
   * metrics.attempt('table.rows.created', 'retried')
   * ```
   */
  attempt(type: string, outcome: 'succeeded' | 'retried' | 'failed', latencySeconds?: number): void {
    this.attempts?.inc({ outcome })
    if (outcome === 'retried') return
    this.deliveries?.inc({ type, outcome })
    if (outcome === 'succeeded' && latencySeconds !== undefined) this.latency?.observe({ type }, latencySeconds)
  }
}
