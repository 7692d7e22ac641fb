import * as ops from '../../api/files/operations.js'
import { BaseClient } from '../base-client.js'
import type { CallOptions } from '../http/call-options.js'
import type { ClientInput, ClientOutput, Simplify } from '../operation-types.js'

/**
 * Input of `copyFile`: the source and destination plus `x-destination-bot-id`, sent as a header, to
 * copy into another bot.
 *
 * @example
 * ```ts
 * const input: CopyFileInput = { idOrKey: 'a.txt', destinationKey: 'a.txt', 'x-destination-bot-id': 'other-bot' }
 * ```
 */
export type CopyFileInput = Simplify<ClientInput<typeof ops.copyFile> & { 'x-destination-bot-id'?: string }>

/**
 * The Files API operations (docs/wire-format.md §7), with the names and shapes of `@botpress/client`.
 * Every method takes the flat input object and, optionally, call options (`signal`, `timeout`, `headers`).
 */
export abstract class FilesClient extends BaseClient {
  /**
   * Creates a file, or starts a new version of an existing key, and returns its `uploadUrl`. Prefer `uploadFile`, which also sends the bytes.
   *
   * @example
   * ```ts
   * const { file } = await client.upsertFile({ key: 'notes.txt', size: 5, contentType: 'text/plain' })
   * await fetch(file.uploadUrl, { method: 'PUT', body: 'hello' })
   * ```
   */
  public readonly upsertFile = (input: ClientInput<typeof ops.upsertFile>, options?: CallOptions): Promise<ClientOutput<typeof ops.upsertFile>> =>
    this.call(ops.upsertFile, input, options)

  /**
   * Deletes a file (by id or key) and its content.
   *
   * @example
   * ```ts
   * await client.deleteFile({ id: 'notes.txt' })
   * ```
   */
  public readonly deleteFile = (input: ClientInput<typeof ops.deleteFile>, options?: CallOptions): Promise<ClientOutput<typeof ops.deleteFile>> =>
    this.call(ops.deleteFile, input, options)

  /**
   * Lists one page of the files the caller may access (newest first by default). Use `client.list.files(...)` to go through every page.
   *
   * @example
   * ```ts
   * const { files, meta } = await client.listFiles({ tags: { category: ['Sales', 'Support'] }, sortField: 'key', sortDirection: 'asc' })
   * ```
   */
  public readonly listFiles = (input: ClientInput<typeof ops.listFiles>, options?: CallOptions): Promise<ClientOutput<typeof ops.listFiles>> =>
    this.call(ops.listFiles, input, options)

  /**
   * Gets a file by id or key, with a fresh content `url`.
   *
   * @example
   * ```ts
   * const { file } = await client.getFile({ id: 'reports/q3.pdf' })
   * console.log(file.status, file.size, file.url)
   * ```
   */
  public readonly getFile = (input: ClientInput<typeof ops.getFile>, options?: CallOptions): Promise<ClientOutput<typeof ops.getFile>> =>
    this.call(ops.getFile, input, options)

  /**
   * Updates a file's metadata and tags (merged; `null` deletes a key), access policies (replaced) or expiry (`null` removes it). The content never changes.
   *
   * @example
   * ```ts
   * const { file } = await client.updateFileMetadata({ id: 'notes.txt', tags: { reviewed: 'yes', draft: null } })
   * ```
   */
  public readonly updateFileMetadata = (input: ClientInput<typeof ops.updateFileMetadata>, options?: CallOptions): Promise<ClientOutput<typeof ops.updateFileMetadata>> =>
    this.call(ops.updateFileMetadata, input, options)

  /**
   * Copies a file to a new key, in the same bot or, with `x-destination-bot-id`, in another one. Without `overwrite`, an existing destination key is an `AlreadyExistsError`.
   *
   * @example
   * ```ts
   * const { file } = await client.copyFile({ idOrKey: 'notes.txt', destinationKey: 'archive/notes.txt', overwrite: true })
   * ```
   */
  public readonly copyFile = (input: CopyFileInput, options?: CallOptions): Promise<ClientOutput<typeof ops.copyFile>> =>
    this.call(ops.copyFile, input, options)

  /**
   * Searches indexed files in natural language: passages highest score first, with their file.
   *
   * @example
   * ```ts
   * const { passages } = await client.searchFiles({ query: 'refund policy', limit: 5 })
   * ```
   */
  public readonly searchFiles = (input: ClientInput<typeof ops.searchFiles>, options?: CallOptions): Promise<ClientOutput<typeof ops.searchFiles>> =>
    this.call(ops.searchFiles, input, options)

  /**
   * Lists one page of the passages of an indexed file. Use `client.list.filePassages(...)` for every page.
   *
   * @example
   * ```ts
   * const { passages, meta } = await client.listFilePassages({ id: 'guide.pdf' })
   * ```
   */
  public readonly listFilePassages = (input: ClientInput<typeof ops.listFilePassages>, options?: CallOptions): Promise<ClientOutput<typeof ops.listFilePassages>> =>
    this.call(ops.listFilePassages, input, options)

  /**
   * Replaces the passages of a file.
   *
   * @example
   * ```ts
   * await client.setFilePassages({ id: 'guide.pdf', passages: [{ content: '# Guide', type: 'title' }] })
   * ```
   */
  public readonly setFilePassages = (input: ClientInput<typeof ops.setFilePassages>, options?: CallOptions): Promise<ClientOutput<typeof ops.setFilePassages>> =>
    this.call(ops.setFilePassages, input, options)

  /**
   * Lists one page of the distinct tag keys in use. Use `client.list.fileTags()` for every page.
   *
   * @example
   * ```ts
   * const { tags } = await client.listFileTags({})
   * ```
   */
  public readonly listFileTags = (input: ClientInput<typeof ops.listFileTags>, options?: CallOptions): Promise<ClientOutput<typeof ops.listFileTags>> =>
    this.call(ops.listFileTags, input, options)

  /**
   * Lists one page of the distinct values of one tag. Use `client.list.fileTagValues({ tag })` for every page.
   *
   * @example
   * ```ts
   * const { values } = await client.listFileTagValues({ tag: 'category' })
   * ```
   */
  public readonly listFileTagValues = (input: ClientInput<typeof ops.listFileTagValues>, options?: CallOptions): Promise<ClientOutput<typeof ops.listFileTagValues>> =>
    this.call(ops.listFileTagValues, input, options)

  /**
   * Creates a knowledge base.
   *
   * @example
   * ```ts
   * const { knowledgeBase } = await client.createKnowledgeBase({ name: 'Product docs', tags: { team: 'support' } })
   * ```
   */
  public readonly createKnowledgeBase = (input: ClientInput<typeof ops.createKnowledgeBase>, options?: CallOptions): Promise<ClientOutput<typeof ops.createKnowledgeBase>> =>
    this.call(ops.createKnowledgeBase, input, options)

  /**
   * Deletes a knowledge base.
   *
   * @example
   * ```ts
   * await client.deleteKnowledgeBase({ id: knowledgeBase.id })
   * ```
   */
  public readonly deleteKnowledgeBase = (input: ClientInput<typeof ops.deleteKnowledgeBase>, options?: CallOptions): Promise<ClientOutput<typeof ops.deleteKnowledgeBase>> =>
    this.call(ops.deleteKnowledgeBase, input, options)

  /**
   * Renames a knowledge base and merges its tags (`null` deletes a tag).
   *
   * @example
   * ```ts
   * await client.updateKnowledgeBase({ id: knowledgeBase.id, name: 'Docs v2', tags: { old: null } })
   * ```
   */
  public readonly updateKnowledgeBase = (input: ClientInput<typeof ops.updateKnowledgeBase>, options?: CallOptions): Promise<ClientOutput<typeof ops.updateKnowledgeBase>> =>
    this.call(ops.updateKnowledgeBase, input, options)

  /**
   * Lists one page of knowledge bases. Use `client.list.knowledgeBases(...)` for every page.
   *
   * @example
   * ```ts
   * const { knowledgeBases } = await client.listKnowledgeBases({ tags: { team: 'support' } })
   * ```
   */
  public readonly listKnowledgeBases = (input: ClientInput<typeof ops.listKnowledgeBases>, options?: CallOptions): Promise<ClientOutput<typeof ops.listKnowledgeBases>> =>
    this.call(ops.listKnowledgeBases, input, options)
}
