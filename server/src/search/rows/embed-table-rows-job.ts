import { EmbedderUnavailableError, type Embedder } from '../embedding/index.js'
import { TablesStoreError } from '../../store/tables/index.js'
import type { ServiceJob } from '../../http/env.js'
import { defineJob } from '../../jobs/index.js'
import { embedTableRowsSpec, enqueueRowEmbedding, type EmbedTableRowsPayload } from './enqueue-row-embedding.js'
import type { TableSearchOptions } from './table-search-options.js'

/**
 * How long a claim on rows holds: longer than embedding one batch usually takes (a slower batch only repeats work:
 * its late write is refused), short enough that rows claimed by a crashed process are embedded again soon.
 */
const CLAIM_LEASE_MS = 2 * 60_000
/** Batches one run embeds before it hands over to a follow-up job, so other tables' jobs get their turn. */
const BATCHES_PER_RUN = 50
/** Shortest and longest wait before retrying after an unavailable embedder, in milliseconds. */
const DEFER_MIN_MS = 1_000
const DEFER_MAX_MS = 5 * 60_000

function isZero(vector: Float32Array): boolean {
  return vector.every((value) => value === 0)
}

/** The vectors of claimed rows in order; `null` for a row with no text (or no meaningful vector). */
async function embedTexts(embedder: Embedder, texts: readonly string[], signal: AbortSignal): Promise<Array<Float32Array | null>> {
  const wanted = texts.flatMap((text, index) => (text.trim() === '' ? [] : [index]))
  const vectors: Array<Float32Array | null> = texts.map(() => null)
  if (wanted.length === 0) return vectors
  const answer = await embedder.embed(
    wanted.map((index) => texts[index]!),
    { signal, purpose: 'passage' },
  )
  if (answer.length !== wanted.length) throw new Error(`the embedder ${embedder.id} returned ${answer.length} vectors for ${wanted.length} texts`)
  wanted.forEach((index, position) => {
    const vector = answer[position]!
    vectors[index] = isZero(vector) ? null : vector
  })
  return vectors
}

/**
 * The `tables.embed` job (decision 0860): claims a table's stale rows batch by batch, embeds their searchable text
 * and writes the vectors back under the claim (a row written meanwhile stays stale for the next run). A deleted
 * table ends the job; an unavailable embedder queues the work again after its `retryAfterMs` without using up
 * attempts; after `BATCHES_PER_RUN` batches a follow-up job takes over.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'tables', jobs: [embedTableRowsJob(search)] }
 * ```
 */
export function embedTableRowsJob(options: TableSearchOptions): ServiceJob<EmbedTableRowsPayload> {
  return defineJob({
    ...embedTableRowsSpec,
    async run({ job, payload, signal, services }) {
      const embedder = options.embedder
      if (!embedder) return
      const { tables } = services.backend
      const batchSize = options.embedBatchSize ?? 32
      for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
        signal.throwIfAborted()
        let claim
        try {
          claim = await tables.claimStaleRows(payload.botId, payload.tableId, { embedderId: embedder.id, limit: batchSize, leaseMs: CLAIM_LEASE_MS })
        } catch (error) {
          if (error instanceof TablesStoreError && error.type === 'ResourceNotFound') return
          throw error
        }
        if (claim.rows.length === 0) return
        let vectors
        try {
          vectors = await embedTexts(
            embedder,
            claim.rows.map((row) => row.text),
            signal,
          )
        } catch (error) {
          if (signal.aborted || !(error instanceof EmbedderUnavailableError)) throw error
          const waitMs = Math.min(DEFER_MAX_MS, Math.max(DEFER_MIN_MS, error.retryAfterMs))
          const deferrals = (payload.deferrals ?? 0) + 1
          await enqueueRowEmbedding(services, { ...payload, deferrals }, { runAt: new Date(services.now().getTime() + waitMs), dedupeKey: `${payload.tableId}:deferred:${job.id}` })
          services.logger.log('info', 'row embedding waits for the embedder', { tableId: payload.tableId, waitMs, deferrals, error: error.message })
          return
        }
        await tables.setRowVectors(payload.botId, payload.tableId, {
          token: claim.token,
          embedderId: embedder.id,
          vectors: claim.rows.map((row, index) => ({ id: row.id, vector: vectors[index] ?? null })),
        })
      }
      await enqueueRowEmbedding(services, { botId: payload.botId, tableId: payload.tableId }, { dedupeKey: `${payload.tableId}:next:${job.id}` })
    },
  })
}
