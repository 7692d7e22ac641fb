import { vectorStorageQuotaExceeded } from '../../usage/index.js'
import { fileEvent } from '../../webhooks/event-drafts.js'
import { filesLimits } from 'botshelf/api'
import { BotshelfError } from 'botshelf/api'
import { EmbedderUnavailableError, type Embedder } from '../embedding/index.js'
import { indexableFormat } from '../extraction/index.js'
import { LanguageModelUnavailableError } from '../../language-model/index.js'
import type { FileRecord, PassageInput } from '../../store/index.js'
import type { AppServices, ServiceJob } from '../../http/env.js'
import { defineJob } from '../../jobs/index.js'
import type { DocumentExtractor } from './document-extractor.js'
import { enqueueIndexing, indexFileSpec, type IndexFilePayload } from './enqueue-indexing.js'
import { prepareGivenPassages, type PreparedPassage } from './given-passages.js'
import type { IndexingOptions } from './indexing-options.js'
import { embeddingContextOf, embeddingTexts } from './embedding-texts.js'
import { applyIndexingOptions, captionImage, fileIndexingOptions, IMAGE_CAPTION_MAX_BYTES, imageType, IndexingNotes, modelRefusal, NO_LANGUAGE_MODEL } from './options/index.js'

/** Shortest and longest wait before retrying after an unavailable embedder, in milliseconds. */
const DEFER_MIN_MS = 1_000
const DEFER_MAX_MS = 5 * 60_000

/** A reason the file cannot be indexed: the file goes `indexing_failed` with this message, no retry. */
class IndexingRefusal extends BotshelfError {
  constructor(message: string) {
    super('InvalidPayload', 'INDEXING_REFUSED', message)
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

async function readContent(services: AppServices, file: FileRecord, signal: AbortSignal): Promise<Uint8Array> {
  if (!file.blobId) throw new IndexingRefusal('the file has no uploaded content to index; upload it, or give its passages with setFilePassages')
  const { stream, size } = await services.backend.blobs.read(file.blobId)
  const content = new Uint8Array(size)
  let offset = 0
  const reader = stream.getReader()
  try {
    for (;;) {
      signal.throwIfAborted()
      const { done, value } = await reader.read()
      if (done) return content
      // The blob grew under us (it never should): refuse rather than write past the buffer.
      if (offset + value.byteLength > size) throw new Error(`the content of file ${file.id} is longer than its recorded ${size} bytes`)
      content.set(value, offset)
      offset += value.byteLength
    }
  } catch (error) {
    // Let go of the file handle at once instead of waiting for the stream to be collected.
    await reader.cancel().catch(() => undefined)
    throw error
  } finally {
    reader.releaseLock()
  }
}

/**
 * The passages of a file's content: an image described by the language model, or a document extracted and then
 * given the file's indexing options (decision 1435); options not applied are recorded in `notes`.
 */
async function passagesFromContent(services: AppServices, file: FileRecord, extractor: DocumentExtractor | undefined, signal: AbortSignal, notes: IndexingNotes): Promise<PreparedPassage[]> {
  const size = file.size ?? 0
  if (size > filesLimits.indexableMaxBytes) {
    throw new IndexingRefusal(`the file has ${size} bytes; files over 95 MB (${filesLimits.indexableMaxBytes} bytes) are not indexed`)
  }
  const contentType = file.blobContentType ?? file.contentType
  const image = imageType(contentType, file.key)
  if (image) return describeImage(services, file, image, signal)
  const options = fileIndexingOptions(file.indexingConfiguration, filesLimits.chunkLengthDefault)
  const format = indexableFormat(contentType, file.key)
  // A scanned PDF has no text of its own: with page vision its pages may still give passages (decision 1481).
  const pageVision = format === 'pdf' && (options.transcribePages !== undefined || options.indexPages !== undefined)
  const { passages: extracted, content, noText } = await extract(services, file, extractor, options.maximumChunkLength, signal, pageVision)
  const passages = await applyIndexingOptions(extracted, { options, format, key: file.key, model: services.languageModel, signal, notes, content })
  if (noText !== undefined && passages.length === 0) throw new IndexingRefusal([noText, notes.text()].filter(Boolean).join('; '))
  return passages
}

/** An image file's one passage: its caption by the language model, or a refusal saying why there is none. */
async function describeImage(services: AppServices, file: FileRecord, type: string, signal: AbortSignal): Promise<PreparedPassage[]> {
  const size = file.size ?? 0
  if (size > IMAGE_CAPTION_MAX_BYTES) {
    throw new IndexingRefusal(`the image has ${size} bytes; images over 20 MB (${IMAGE_CAPTION_MAX_BYTES} bytes) are not sent to the language model to be described`)
  }
  const content = await readContent(services, file, signal)
  let caption: PreparedPassage[]
  try {
    caption = await captionImage({ content, type, key: file.key }, { model: services.languageModel, signal })
  } catch (error) {
    const why = modelRefusal(error)
    if (!why) throw error
    if (why === NO_LANGUAGE_MODEL) throw new IndexingRefusal(`an image is indexed by the caption a vision-capable language model writes of it, and ${NO_LANGUAGE_MODEL}`)
    throw new IndexingRefusal(`the language model could not describe the image (it must accept images: configure a vision-capable model with --llm-model): ${why}`)
  }
  if (caption.length === 0) throw new IndexingRefusal('the language model answered an empty description of the image, so it has nothing to index')
  return caption
}

/**
 * The document's bytes and its extracted passages. With `allowNoText`, a document without text (`NO_TEXT`) gives no
 * passages and the extractor's reason in `noText`, instead of a refusal.
 */
async function extract(
  services: AppServices,
  file: FileRecord,
  extractor: DocumentExtractor | undefined,
  maximumChunkLength: number,
  signal: AbortSignal,
  allowNoText: boolean,
): Promise<{ passages: PreparedPassage[]; content: Uint8Array; noText?: string }> {
  if (!extractor) {
    throw new IndexingRefusal('this server has no document extractor configured, so files cannot be indexed from their content (setFilePassages still works)')
  }
  const content = await readContent(services, file, signal)
  let extracted
  try {
    extracted = await extractor({ content, contentType: file.blobContentType ?? file.contentType, key: file.key }, { maximumChunkLength, signal })
  } catch (error) {
    if (allowNoText && error instanceof Error && error.name === 'ExtractionError' && (error as { code?: string }).code === 'NO_TEXT') return { passages: [], content, noText: error.message }
    // The extractor's own errors explain themselves; anything else may be transient and is retried.
    if (error instanceof BotshelfError || (error instanceof Error && error.name === 'ExtractionError')) throw new IndexingRefusal(error.message)
    throw error
  }
  const passages = extracted.map((passage) => ({
    content: passage.content,
    subtype: passage.meta.subtype,
    ...(passage.meta.pageNumber !== undefined ? { pageNumber: passage.meta.pageNumber } : {}),
    breadcrumb: passage.breadcrumb,
  }))
  return { passages, content }
}

async function embed(embedder: Embedder | null | undefined, texts: string[], batchSize: number, signal: AbortSignal): Promise<Array<Float32Array | null>> {
  if (!embedder || texts.length === 0) return texts.map(() => null)
  const vectors: Float32Array[] = []
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize)
    const answer = await embedder.embed(batch, { signal, purpose: 'passage' })
    if (answer.length !== batch.length) throw new Error(`the embedder ${embedder.id} returned ${answer.length} vectors for ${batch.length} texts`)
    vectors.push(...answer)
  }
  return vectors
}

/**
 * The `files.index` job: extracts the passages of a file's content (or takes the given ones), embeds them when an
 * embedder is configured, then, in one transaction, swaps them in and marks the file `indexing_completed`, if the
 * indexing request it serves is still the file's latest. Until that commit the file's earlier passages keep
 * matching. The file's indexing options are applied to extracted passages (summaries, cleanup: decision 1435; PDF
 * page vision: decision 1481) and
 * image files are described by the language model; options that could not be applied are named in the completed
 * file's `failedStatusReason`. Every failure ends in `indexing_failed` with a reason: at once when the document
 * cannot be indexed, after the last attempt otherwise. An unavailable embedder or language model does not count as
 * a failure: the request is queued again after its `retryAfterMs` and the file stays `indexing_pending`.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'files', jobs: [indexFileJob({ extractor, embedder })] }
 * ```
 */
export function indexFileJob(options: IndexingOptions = {}): ServiceJob<IndexFilePayload> {
  const batchSize = options.embedBatchSize ?? 32
  return defineJob({
    ...indexFileSpec,
    async run({ job, payload, signal, services }) {
      const { backend } = services
      const file = await backend.files.getAnyById(payload.fileId)
      // Deleted, re-upserted or asked again meanwhile: a later request (or none) owns the file now.
      if (!file || file.indexGeneration !== payload.generation || file.status !== 'indexing_pending') return
      const fail = async (reason: string) => {
        // The status change and its `file.indexing_failed` event commit together.
        await services.webhooks.transaction(async (tx) => {
          const failed = await tx.files.finishIndexing(file.id, payload.generation, { status: 'indexing_failed', reason })
          return { result: undefined, events: failed ? [fileEvent(services, 'file.indexing_failed', failed)] : [] }
        })
        services.logger.log('warn', 'indexing failed', { fileId: file.id, reason })
      }
      try {
        const notes = new IndexingNotes()
        const prepared = payload.passages ? prepareGivenPassages(payload.passages) : await passagesFromContent(services, file, options.extractor, signal, notes)
        const vectors = await embed(options.embedder, embeddingTexts(prepared, embeddingContextOf(file)), batchSize, signal)
        const passages: PassageInput[] = prepared.map((passage, index) => ({ ...passage, vector: vectors[index] ?? null }))
        const overQuota = await vectorStorageQuotaExceeded(backend, services.quotas, file.id, passages)
        if (overQuota) return fail(overQuota)
        // The passages, the status and the `file.indexed` event commit together: the file is searchable when it arrives.
        await services.webhooks.transaction(async (tx) => {
          const current = await tx.files.getAnyById(file.id)
          if (!current || current.indexGeneration !== payload.generation || current.status !== 'indexing_pending') return { result: undefined, events: [] }
          await tx.search.replacePassages({ fileId: file.id, botId: file.botId, embedderId: options.embedder?.id ?? null, passages })
          const note = notes.text()
          const indexed = await tx.files.finishIndexing(file.id, payload.generation, { status: 'indexing_completed', ...(note ? { note } : {}) })
          return { result: undefined, events: indexed ? [fileEvent(services, 'file.indexed', indexed)] : [] }
        })
      } catch (error) {
        if (signal.aborted) throw error
        if (error instanceof IndexingRefusal) return fail(error.message)
        if (error instanceof EmbedderUnavailableError || error instanceof LanguageModelUnavailableError) {
          const waitMs = Math.min(DEFER_MAX_MS, Math.max(DEFER_MIN_MS, error.retryAfterMs))
          const deferrals = (payload.deferrals ?? 0) + 1
          await backend.transaction((tx) => enqueueIndexing(tx, file, { ...(payload.passages ? { passages: payload.passages } : {}), runAt: new Date(services.now().getTime() + waitMs), deferrals }))
          const waitsFor = error instanceof EmbedderUnavailableError ? 'the embedder' : 'the language model'
          services.logger.log('info', `indexing waits for ${waitsFor}`, { fileId: file.id, waitMs, deferrals, error: error.message })
          return
        }
        if (job.attempts >= job.maxAttempts) return fail(`indexing failed after ${job.attempts} attempts: ${messageOf(error)}`)
        throw error
      }
    },
  })
}

/**
 * Ends the indexing requests whose job went dead without recording an outcome (its worker crashed on every
 * attempt): their files go `indexing_failed` instead of staying pending forever. Run at start.
 *
 * @example
 * ```ts
 * await failDeadIndexingJobs(services)
 * ```
 */
export async function failDeadIndexingJobs(services: AppServices): Promise<number> {
  let failed = 0
  for (const job of await services.backend.jobs.list({ state: 'dead', kind: indexFileSpec.kind, limit: 500 })) {
    const parsed = indexFileSpec.payload.safeParse(job.payload)
    if (!parsed.success) continue
    const payload = parsed.data
    const reason = `indexing stopped after ${job.attempts} attempts: ${job.lastError ?? 'the indexing worker stopped before finishing'}`
    if (await services.backend.files.finishIndexing(payload.fileId, payload.generation, { status: 'indexing_failed', reason })) failed++
  }
  return failed
}
