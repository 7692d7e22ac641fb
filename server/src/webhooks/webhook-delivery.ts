import type { Logger } from 'botshelf/api'
import type { Registry } from 'prom-client'
import { JobRunner } from '../jobs/index.js'
import type { Backend, BackendPorts } from '../store/index.js'
import { deliverWebhookJob } from './deliver-job.js'
import { DeliveryMetrics } from './delivery-metrics.js'
import type { WebhookHostPolicy } from './host-policy.js'
import { recordStorageEvents } from './record-events.js'
import { DEFAULT_WEBHOOK_RETRIES, parseRetrySchedule } from './retry-schedule.js'
import type { DeliveryFetch } from './send-delivery.js'
import type { StorageEventDraft } from './storage-event.js'
import type { WebhookOptions } from './webhook-options.js'

/**
 * Storage event delivery of one server: records events in the transaction of a change (the outbox) and runs the
 * delivery jobs on a runner of their own, so deliveries never wait behind indexing or imports and indexing never
 * waits behind a slow endpoint. Every server on a dataset runs one; the queue's leases make each delivery job run
 * in one of them.
 *
 * @example
 * ```ts
 * const queued = await backend.transaction((tx) => webhooks.record(tx, [draft]))
 * webhooks.committed(queued)
 * ```
 */
export class WebhookDelivery {
  /** The waits before each retry, in milliseconds. */
  readonly retries: ReadonlyArray<number>
  /** Hosts subscriptions may call (undefined: any). */
  readonly allowedHosts: WebhookHostPolicy
  private readonly runner: JobRunner
  private base: string | undefined

  constructor(
    private readonly backend: Backend,
    options: WebhookOptions & { logger: Pick<Logger, 'log'>; registry?: Registry; publicUrl?: string },
  ) {
    this.retries = typeof options.retries === 'string' || options.retries === undefined ? parseRetrySchedule(options.retries ?? DEFAULT_WEBHOOK_RETRIES) : [...options.retries]
    this.allowedHosts = options.allowedHosts
    this.base = options.publicUrl
    const send: DeliveryFetch = options.fetch ?? ((url, init) => fetch(url, init))
    this.runner = new JobRunner({
      queue: backend.jobs,
      jobs: [
        deliverWebhookJob({
          backend,
          logger: options.logger,
          metrics: new DeliveryMetrics(options.registry),
          retries: this.retries,
          allowedHosts: this.allowedHosts,
          timeoutMs: options.timeoutMs ?? 10_000,
          perSubscription: options.perSubscription ?? 2,
          fetch: send,
        }),
      ],
      now: backend.now,
      concurrency: options.concurrency ?? 16,
      pollMs: options.pollMs ?? 500,
      shutdownGraceMs: 2_000,
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      logger: { log: (level, message, fields) => (level === 'debug' || level === 'info' ? undefined : options.logger.log(level, message, fields)) },
      workerName: 'webhooks',
    })
  }

  /**
   * Records events inside the caller's transaction; returns how many deliveries it queued (pass it to
   * {@link committed} after the commit).
   *
   * @example
   * ```ts
   * const queued = await backend.transaction(async (tx) => { ...; return webhooks.record(tx, drafts) })
   * ```
   */
  record(tx: Pick<BackendPorts, 'webhooks' | 'jobs'>, drafts: ReadonlyArray<StorageEventDraft>): Promise<number> {
    return drafts.length === 0 ? Promise.resolve(0) : recordStorageEvents(tx, drafts, this.backend.now())
  }

  /**
   * After the commit of recorded events: starts their delivery now instead of at the next poll.
   *
   * @example
   * ```ts
   * webhooks.committed(queued)
   * ```
   */
  committed(queued = 1): void {
    if (queued > 0) this.runner.wake()
  }

  /**
   * Runs `fn` in one transaction with the events it returns recorded in it, then wakes the delivery runner.
   *
   * @example
   * ```ts
   * const table = await webhooks.transaction(async (tx) => { const table = await tx.tables.createTable(botId, body); return { result: table, events: [draft] } })
   * ```
   */
  async transaction<T>(fn: (tx: BackendPorts) => Promise<{ result: T; events: ReadonlyArray<StorageEventDraft> }>): Promise<T> {
    const { result, queued } = await this.backend.transaction(async (tx) => {
      const { result, events } = await fn(tx)
      return { result, queued: await this.record(tx, events) }
    })
    this.committed(queued)
    return result
  }

  /**
   * The base of absolute URLs in event payloads: `--public-url`, else the origin of the last request that emitted.
   *
   * @example
   * ```ts
   * webhooks.baseUrl('http://127.0.0.1:3000')
   * ```
   */
  baseUrl(requestBase?: string): string {
    if (requestBase !== undefined && this.base === undefined) this.base = requestBase
    return this.base ?? requestBase ?? 'http://localhost:3000'
  }

  /** Starts the delivery runner. */
  start(): void {
    this.runner.start()
  }

  /** Stops the delivery runner (running attempts get a short grace, then their jobs go back by lease). */
  stop(): Promise<void> {
    return this.runner.stop()
  }
}
