import { filesLimits } from 'botshelf/api'
import type { Backend, ExistingFileCheck, FileOwnerRef, FileRecord, UpsertFileInput } from '../store/index.js'
import type { Logger } from '../http/logger.js'
import { ServiceError } from '../http/service-error.js'
import { indexAfterContentCommit } from '../search/indexing/enqueue-indexing.js'
import type { BackendPorts } from '../store/index.js'
import type { StorageEventDraft } from '../webhooks/storage-event.js'

/**
 * Where the files workflow records storage events (`file.created`, ...): inside the transaction of each change,
 * then a wake once it committed (decision 1411). Without one, no event is recorded.
 *
 * @example
 * ```ts
 * const outbox: FilesOutbox = { fileEvent: (type, file) => fileEvent(services, type, file), record: (tx, drafts) => webhooks.record(tx, drafts), committed: (n) => webhooks.committed(n) }
 * ```
 */
export interface FilesOutbox {
  fileEvent(type: 'file.created' | 'file.updated' | 'file.deleted', file: FileRecord): StorageEventDraft
  record(tx: BackendPorts, drafts: ReadonlyArray<StorageEventDraft>): Promise<number>
  committed(queued: number): void
}

/**
 * What happened to a file, after the change committed. `content-committed`: new content became readable (an
 * upload, a copy, a table export); `version-replaced`: that content replaced earlier content (readers of the
 * old version, such as a search index, must drop it); `file-deleted`: the file is gone (deleted, expired,
 * overwritten).
 */
export type FilesEvent =
  | { type: 'content-committed'; file: FileRecord; via: 'upload' | 'copy' | 'export' }
  | { type: 'version-replaced'; file: FileRecord; previousBlobId: string | null }
  | { type: 'file-deleted'; file: FileRecord }

/** A subscriber to {@link FilesEvent}s. A failure is logged; it never undoes the change. */
export type FilesEventListener = (event: FilesEvent) => void | Promise<void>

// Decides, inside the transaction, whether the caller may act given the file already at the key in its owner scope (throw to refuse): the store's type.
export type { ExistingFileCheck }

/**
 * The files workflow between the routes and the ports, in one place: define a file (check-then-act in one
 * transaction), stream its content to the blob store and make it readable (or record why not), copy, delete and
 * expire; then release the blobs no row references and tell the subscribers. Every path that commits content
 * (the content PUT, table export, copyFile) goes through here, so a subscriber sees them all.
 *
 * @example
 * ```ts
 * const service = new FilesService(backend, logger)
 * service.on((event) => { if (event.type === 'content-committed') console.log('new content', event.file.id) })
 * const { file } = await service.define(input, (existing) => { if (existing) throw forbidden })
 * await service.uploadContent(file, file.version, request.body!)
 * ```
 */
export class FilesService {
  private readonly listeners = new Set<FilesEventListener>()

  constructor(
    private readonly backend: Backend,
    private readonly logger: Logger,
    private readonly outbox?: FilesOutbox,
  ) {}

  private async recordEvents(tx: BackendPorts, events: ReadonlyArray<readonly ['file.created' | 'file.updated' | 'file.deleted', FileRecord]>): Promise<number> {
    if (!this.outbox) return 0
    return this.outbox.record(tx, events.map(([type, file]) => this.outbox!.fileEvent(type, file)))
  }

  /**
   * Subscribes to file events; returns the unsubscribe function.
   *
   * @example
   * ```ts
   * const off = service.on((event) => queue.push(event))
   * ```
   */
  on(listener: FilesEventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /**
   * Creates a file or starts a new version of its key (`upload_pending`), after `check` accepted the file already
   * at the key in the caller's owner scope: both in one transaction, so no other request acts in between.
   *
   * @example
   * ```ts
   * const { file, created } = await service.define(input, (existing) => authorize(existing))
   * ```
   */
  async define(input: UpsertFileInput, check: ExistingFileCheck): Promise<{ file: FileRecord; created: boolean }> {
    // One port call reads the row at (bot, owner scope, key) once, runs the check and writes, atomically.
    const result = await this.backend.files.upsert(input, check)
    await this.releaseBlobs(result.unreferencedBlobIds)
    return { file: result.file, created: result.created }
  }

  /**
   * Streams content into the blob store and makes it the readable content of `version`, if that version is still
   * the latest when the bytes have landed; otherwise the new blob is deleted and `FilesStoreError` says why. The content
   * it replaced is released. Blob errors (size, limit) propagate for the caller to explain and record.
   *
   * @example
   * ```ts
   * const file = await service.uploadContent(file, token.v, body, { expectedBytes: file.declaredSize })
   * ```
   */
  async uploadContent(
    file: FileRecord,
    version: number,
    content: AsyncIterable<Uint8Array>,
    options: { expectedBytes: number; maxBytes?: number },
  ): Promise<FileRecord> {
    const written = await this.backend.blobs.write(content, { expectedBytes: options.expectedBytes, maxBytes: options.maxBytes ?? filesLimits.fileMaxBytes })
    const previousBlobId = file.blobId
    // Deleted or superseded meanwhile (FilesStoreError, answered 404 / 410) or any failure: the new blob goes.
    // The indexing job of the new content is queued in the same transaction as the commit.
    const commit = this.backend.transaction(async (tx) => {
      const committed = await tx.files.completeUpload(file.id, version, written)
      await indexAfterContentCommit(tx, committed.file)
      // The key's first content is `file.created`; content replacing earlier content is `file.updated`.
      const queued = await this.recordEvents(tx, [[previousBlobId ? 'file.updated' : 'file.created', committed.file]])
      return { ...committed, queued }
    })
    const result = await commit.catch(async (error: unknown) => {
      await this.releaseBlobs([written.blobId])
      throw error
    })
    this.outbox?.committed(result.queued)
    await this.releaseBlobs(result.unreferencedBlobId ? [result.unreferencedBlobId] : [])
    await this.emit({ type: 'content-committed', file: result.file, via: 'upload' })
    if (previousBlobId) await this.emit({ type: 'version-replaced', file: result.file, previousBlobId })
    return result.file
  }

  /**
   * Records that the upload of `version` failed, with the reason users will read in `failedStatusReason`.
   *
   * @example
   * ```ts
   * await service.failUpload(file.id, 1, 'the upload was interrupted before all the content arrived')
   * ```
   */
  async failUpload(fileId: string, version: number, reason: string): Promise<void> {
    await this.backend.files.failUpload(fileId, version, reason)
  }

  /**
   * Creates a file whose content is produced by the server (a table export): the bytes are streamed to the blob
   * store first, then the row and its content commit together, so the file never shows up half-written.
   *
   * @example
   * ```ts
   * const file = await service.createWithContent(input, encodeExport(rows, options))
   * ```
   */
  async createWithContent(input: Omit<UpsertFileInput, 'size'>, content: AsyncIterable<Uint8Array>): Promise<FileRecord> {
    const written = await this.backend.blobs.write(content, { maxBytes: filesLimits.fileMaxBytes })
    let outcome: { file: FileRecord; unreferencedBlobIds: string[]; queued: number }
    try {
      outcome = await this.backend.transaction(async (tx) => {
        const { file, unreferencedBlobIds } = await tx.files.upsert({ ...input, size: written.size })
        const hadContent = file.blobId !== null
        const committed = await tx.files.completeUpload(file.id, file.version, written)
        await indexAfterContentCommit(tx, committed.file)
        const queued = await this.recordEvents(tx, [[hadContent || committed.unreferencedBlobId ? 'file.updated' : 'file.created', committed.file]])
        return { file: committed.file, unreferencedBlobIds: [...unreferencedBlobIds, ...(committed.unreferencedBlobId ? [committed.unreferencedBlobId] : [])], queued }
      })
    } catch (error) {
      await this.releaseBlobs([written.blobId])
      throw error
    }
    this.outbox?.committed(outcome.queued)
    await this.releaseBlobs(outcome.unreferencedBlobIds)
    await this.emit({ type: 'content-committed', file: outcome.file, via: 'export' })
    return outcome.file
  }

  /**
   * Copies a file (its definition and a reference to its content) to `destination`, after `check` accepted the
   * file already there: both in one transaction. The file it overwrites is deleted.
   *
   * @example
   * ```ts
   * const copy = await service.copy(source, { botId, key: 'b.txt', ownerScope: '', owner }, (existing) => authorize(existing))
   * ```
   */
  async copy(source: FileRecord, destination: FileOwnerRef, check: ExistingFileCheck): Promise<FileRecord> {
    const result = await this.backend.transaction(async (tx) => {
      const existing = (await tx.files.getByKey(destination.botId, destination.key)).find((file) => file.ownerScope === destination.ownerScope)
      check(existing)
      const copied = await tx.files.copy(source, destination, existing)
      if (copied.file.status === 'indexing_pending') await indexAfterContentCommit(tx, copied.file)
      const queued = await this.recordEvents(tx, [...(existing ? [['file.deleted', existing] as const] : []), ...(copied.file.blobId ? [['file.created', copied.file] as const] : [])])
      return { ...copied, replaced: existing, queued }
    })
    this.outbox?.committed(result.queued)
    await this.releaseBlobs(result.unreferencedBlobIds)
    if (result.replaced) await this.emit({ type: 'file-deleted', file: result.replaced })
    if (result.file.blobId) await this.emit({ type: 'content-committed', file: result.file, via: 'copy' })
    return result.file
  }

  /**
   * Deletes a file and releases its content.
   *
   * @example
   * ```ts
   * await service.delete(file)
   * ```
   */
  async delete(file: FileRecord): Promise<void> {
    if (this.outbox) {
      const { released, queued } = await this.backend.transaction(async (tx) => ({ released: await tx.files.delete(file.id), queued: await this.recordEvents(tx, [['file.deleted', file]]) }))
      this.outbox.committed(queued)
      await this.releaseBlobs(released)
      await this.emit({ type: 'file-deleted', file })
      return
    }
    await this.releaseBlobs(await this.backend.files.delete(file.id))
    await this.emit({ type: 'file-deleted', file })
  }

  /**
   * Deletes every file whose `expiresAt` has passed and releases their content; returns how many.
   *
   * @example
   * ```ts
   * const count = await service.deleteExpired()
   * ```
   */
  async deleteExpired(): Promise<number> {
    // Expiry is a deletion too: each expired file is a `file.deleted` event, recorded with the deletion.
    const { deleted, unreferencedBlobIds, queued } = await this.backend.transaction(async (tx) => {
      const result = await tx.files.deleteExpired()
      return { ...result, queued: await this.recordEvents(tx, result.files.map((file) => ['file.deleted', file] as const)) }
    })
    this.outbox?.committed(queued)
    await this.releaseBlobs(unreferencedBlobIds)
    return deleted
  }

  /**
   * Deletes blobs no row references any more, after the change that released them committed. A failure leaves an
   * orphan that the startup sweep removes, so it is logged, not thrown.
   *
   * @example
   * ```ts
   * await service.releaseBlobs(['blob_01K...'])
   * ```
   */
  async releaseBlobs(blobIds: ReadonlyArray<string>): Promise<void> {
    for (const blobId of blobIds) {
      await this.backend.blobs.delete(blobId).catch((error: unknown) => {
        this.logger.log('warn', 'could not delete a released blob; the startup sweep will', { blobId, error: String(error) })
      })
    }
  }

  private async emit(event: FilesEvent): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(event)
      } catch (error) {
        this.logger.log('error', 'a files event subscriber failed', { event: event.type, fileId: event.file.id, error: String(error) })
      }
    }
  }
}
