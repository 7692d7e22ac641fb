import { z } from 'zod'
import { defineOperation } from '../operation.js'
import { ListMetaSchema } from '../pagination.js'
import {
  AccessPolicySchema,
  FileKeySchema,
  FileMetadataSchema,
  FileSchema,
  FileTagsPatchSchema,
  FileTagsSchema,
  UploadableFileSchema,
} from './file.js'
import { KnowledgeBaseListItemSchema, KnowledgeBaseSchema } from './knowledge-base.js'
import { filesLimits } from './limits.js'
import { IndexingConfigurationSchema, PassageInputSchema, PassageSchema, SearchPassageSchema } from './passages.js'
import { TagFilterSchema } from './tag-filter.js'

const EmptySchema = z.object({})

/**
 * Pagination query of every Files API list: `nextToken` from the previous page, `pageSize` 1 to 100
 * (default 20).
 *
 * @example
 * ```ts
 * PageQuerySchema.parse({ pageSize: 50 })
 * ```
 */
export const PageQuerySchema = z.object({
  nextToken: z.string().optional(),
  pageSize: z.number().int().min(1).max(filesLimits.pageSizeMax).optional(),
})

/**
 * `expiresAt` as an ISO 8601 date-time with an offset (`2026-12-01T10:00:00Z`). The server also checks that it
 * is in the future and at most 90 days ahead.
 *
 * @example
 * ```ts
 * ExpiresAtSchema.parse('2026-12-01T10:00:00.000Z')
 * ```
 */
export const ExpiresAtSchema = z.iso.datetime({ offset: true })

/**
 * Body of `upsertFile` (`PUT /v1/files`). Unknown keys are refused.
 *
 * @example
 * ```ts
 * UpsertFileBodySchema.parse({ key: 'notes/today.md', size: 12, tags: { kind: 'note' } })
 * ```
 */
export const UpsertFileBodySchema = z.strictObject({
  key: FileKeySchema,
  size: z.number().int().min(0).max(filesLimits.fileMaxBytes),
  tags: FileTagsSchema.optional(),
  index: z.boolean().optional(),
  indexing: z.strictObject({ configuration: IndexingConfigurationSchema.optional() }).optional(),
  accessPolicies: z.array(AccessPolicySchema).optional(),
  // Sent back as a header on every download: a CR or LF here made each download a 500 (issue 28).
  contentType: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7e]+$/, { message: 'expected a media type in printable ASCII such as "text/plain; charset=utf-8" (no control characters)' })
    .optional(),
  expiresAt: ExpiresAtSchema.optional(),
  publicContentImmediatelyAccessible: z.boolean().optional(),
  metadata: FileMetadataSchema.optional(),
})

/**
 * Query of `listFiles`: pagination, sorting (default `createdAt` `desc`), tag filter, ids (at most 50) and
 * `indexed`.
 *
 * @example
 * ```ts
 * ListFilesQuerySchema.parse({ tags: { category: 'Sales' }, sortField: 'key', sortDirection: 'asc' })
 * ```
 */
export const ListFilesQuerySchema = PageQuerySchema.extend({
  sortField: z.enum(['key', 'size', 'createdAt', 'updatedAt', 'status']).optional(),
  sortDirection: z.enum(['asc', 'desc']).optional(),
  tags: TagFilterSchema.optional(),
  ids: z.array(z.string()).max(filesLimits.listIdsMax).optional(),
  indexed: z.boolean().optional(),
})

/**
 * Body of `updateFileMetadata`: `metadata` and `tags` merge (`null` deletes a key), `accessPolicies` replaces,
 * `expiresAt: null` removes the expiry.
 *
 * @example
 * ```ts
 * UpdateFileMetadataBodySchema.parse({ tags: { reviewed: 'yes', draft: null }, expiresAt: null })
 * ```
 */
export const UpdateFileMetadataBodySchema = z.strictObject({
  metadata: FileMetadataSchema.optional(),
  tags: FileTagsPatchSchema.optional(),
  accessPolicies: z.array(AccessPolicySchema).optional(),
  expiresAt: ExpiresAtSchema.nullable().optional(),
})

/**
 * Body of `copyFile`: `overwrite` replaces an existing destination; without it an existing key is an error.
 *
 * @example
 * ```ts
 * CopyFileBodySchema.parse({ overwrite: true })
 * ```
 */
export const CopyFileBodySchema = z.strictObject({ overwrite: z.boolean().optional() })

/**
 * Query of `searchFiles` (docs/wire-format.md §7): the query (1 to 1024 UTF-8 bytes), a tag filter, `limit` 1 to 50
 * (default 20), `contextDepth` 0 to 10 (default 1), and the shaping flags (docs/search.md).
 *
 * @example
 * ```ts
 * SearchFilesQuerySchema.parse({ query: 'refund policy', limit: 5 })
 * ```
 */
export const SearchFilesQuerySchema = z.object({
  query: z
    .string()
    .min(1)
    .refine((q) => new TextEncoder().encode(q).length <= filesLimits.searchQueryMaxBytes, {
      message: `expected at most ${filesLimits.searchQueryMaxBytes} bytes`,
    }),
  tags: TagFilterSchema.optional(),
  contextDepth: z.number().int().min(0).max(10).optional(),
  limit: z.number().int().min(1).max(filesLimits.searchResultsMax).optional(),
  consolidate: z.boolean().optional(),
  includeBreadcrumb: z.boolean().optional(),
  withContext: z.boolean().optional(),
})

/**
 * Body of `setFilePassages`.
 *
 * @example
 * ```ts
 * SetFilePassagesBodySchema.parse({ passages: [{ content: 'Hello' }] })
 * ```
 */
export const SetFilePassagesBodySchema = z.strictObject({ passages: z.array(PassageInputSchema) })

/**
 * Body of `createKnowledgeBase`.
 *
 * @example
 * ```ts
 * CreateKnowledgeBaseBodySchema.parse({ name: 'Product docs', tags: { team: 'support' } })
 * ```
 */
export const CreateKnowledgeBaseBodySchema = z.strictObject({
  name: z.string().min(1).max(filesLimits.knowledgeBaseNameMaxLength),
  tags: FileTagsSchema.optional(),
})

/**
 * Body of `updateKnowledgeBase`: `name` replaces, `tags` merge (`null` deletes).
 *
 * @example
 * ```ts
 * UpdateKnowledgeBaseBodySchema.parse({ name: 'Docs v2', tags: { old: null } })
 * ```
 */
export const UpdateKnowledgeBaseBodySchema = z.strictObject({
  name: z.string().min(1).max(filesLimits.knowledgeBaseNameMaxLength),
  tags: FileTagsPatchSchema.optional(),
})

const IdParams = z.object({ id: z.string().min(1) })

/**
 * `PUT /v1/files`: creates the file (or a new version of an existing key) and returns its `uploadUrl`.
 *
 * @example
 * ```ts
 * const { file } = await client.upsertFile({ key: 'a.txt', size: 5 })
 * ```
 */
export const upsertFile = defineOperation({
  name: 'upsertFile',
  method: 'PUT',
  path: '/v1/files',
  summary: 'Create a file or start a new version of an existing key; returns the upload URL',
  body: UpsertFileBodySchema,
  response: z.object({ file: UploadableFileSchema }),
})

/**
 * `GET /v1/files`: the files the caller may access, newest first by default.
 *
 * @example
 * ```ts
 * const { files, meta } = await client.listFiles({ tags: { category: 'Sales' } })
 * ```
 */
export const listFiles = defineOperation({
  name: 'listFiles',
  method: 'GET',
  path: '/v1/files',
  summary: 'List files (tag filters, ids, sorting, cursor pagination)',
  query: ListFilesQuerySchema,
  response: z.object({ files: z.array(FileSchema), meta: ListMetaSchema }),
})

/**
 * `GET /v1/files/{id}`: one file by id or key, with a fresh content `url`.
 *
 * @example
 * ```ts
 * const { file } = await client.getFile({ id: 'reports/q3.pdf' })
 * ```
 */
export const getFile = defineOperation({
  name: 'getFile',
  method: 'GET',
  path: '/v1/files/{id}',
  summary: 'Get a file by id or key',
  params: IdParams,
  response: z.object({ file: FileSchema }),
})

/**
 * `DELETE /v1/files/{id}`: deletes the file and its content.
 *
 * @example
 * ```ts
 * await client.deleteFile({ id: 'reports/q3.pdf' })
 * ```
 */
export const deleteFile = defineOperation({
  name: 'deleteFile',
  method: 'DELETE',
  path: '/v1/files/{id}',
  summary: 'Delete a file by id or key',
  params: IdParams,
  body: z.object({}),
  response: EmptySchema,
})

/**
 * `PUT /v1/files/{id}`: merges metadata and tags, replaces access policies, sets or removes `expiresAt`.
 *
 * @example
 * ```ts
 * await client.updateFileMetadata({ id: 'a.txt', tags: { draft: null } })
 * ```
 */
export const updateFileMetadata = defineOperation({
  name: 'updateFileMetadata',
  method: 'PUT',
  path: '/v1/files/{id}',
  summary: 'Update the metadata, tags, access policies or expiry of a file (content never changes)',
  params: IdParams,
  body: UpdateFileMetadataBodySchema,
  response: z.object({ file: FileSchema }),
})

/**
 * `POST /v1/files/{idOrKey}/{destinationKey}`: copies a file, optionally to another bot.
 *
 * @example
 * ```ts
 * await client.copyFile({ idOrKey: 'a.txt', destinationKey: 'b.txt', overwrite: true })
 * ```
 */
export const copyFile = defineOperation({
  name: 'copyFile',
  method: 'POST',
  path: '/v1/files/{idOrKey}/{destinationKey}',
  summary: 'Copy a file to a new key, in this bot or in the bot named by x-destination-bot-id',
  params: z.object({ idOrKey: z.string().min(1), destinationKey: FileKeySchema }),
  headers: { 'x-destination-bot-id': 'x-destination-bot-id' },
  body: CopyFileBodySchema,
  response: z.object({ file: FileSchema }),
})

/**
 * `GET /v1/files/search`: hybrid search (words and, with an embedder, meaning) over the indexed files the caller may
 * search, highest score first (docs/search.md).
 *
 * @example
 * ```ts
 * await client.searchFiles({ query: 'refund policy' })
 * ```
 */
export const searchFiles = defineOperation({
  name: 'searchFiles',
  method: 'GET',
  path: '/v1/files/search',
  summary: 'Search indexed files',
  query: SearchFilesQuerySchema,
  response: z.object({ passages: z.array(SearchPassageSchema) }),
})

/**
 * `GET /v1/files/{id}/passages`: the passages of an indexed file in document order, cursor-paginated (`limit`
 * default 20, at most 200).
 *
 * @example
 * ```ts
 * await client.listFilePassages({ id: 'guide.pdf' })
 * ```
 */
export const listFilePassages = defineOperation({
  name: 'listFilePassages',
  method: 'GET',
  path: '/v1/files/{id}/passages',
  summary: 'List the passages of an indexed file',
  params: IdParams,
  query: PageQuerySchema.extend({ limit: z.number().int().min(1).max(200).optional() }),
  response: z.object({ passages: z.array(PassageSchema), meta: ListMetaSchema }),
})

/**
 * `PUT /v1/files/{id}/passages`: replaces the passages of a file with the given ones and indexes them (the status
 * goes `indexing_pending`, then `indexing_completed` or `indexing_failed`).
 *
 * @example
 * ```ts
 * await client.setFilePassages({ id: 'guide.pdf', passages: [{ content: 'Hello' }] })
 * ```
 */
export const setFilePassages = defineOperation({
  name: 'setFilePassages',
  method: 'PUT',
  path: '/v1/files/{id}/passages',
  summary: 'Set the passages of a file',
  params: IdParams,
  body: SetFilePassagesBodySchema,
  response: EmptySchema,
})

/**
 * `GET /v1/files/tags`: the distinct tag keys of the files the caller may access, sorted.
 *
 * @example
 * ```ts
 * const { tags } = await client.listFileTags({})
 * ```
 */
export const listFileTags = defineOperation({
  name: 'listFileTags',
  method: 'GET',
  path: '/v1/files/tags',
  summary: 'List the distinct tag keys in use',
  query: PageQuerySchema,
  response: z.object({ tags: z.array(z.string()), meta: ListMetaSchema }),
})

/**
 * `GET /v1/files/tags/{tag}/values`: the distinct values of one tag, sorted.
 *
 * @example
 * ```ts
 * const { values } = await client.listFileTagValues({ tag: 'category' })
 * ```
 */
export const listFileTagValues = defineOperation({
  name: 'listFileTagValues',
  method: 'GET',
  path: '/v1/files/tags/{tag}/values',
  summary: 'List the distinct values of one tag',
  params: z.object({ tag: z.string().min(1) }),
  query: PageQuerySchema,
  response: z.object({ values: z.array(z.string()), meta: ListMetaSchema }),
})

/**
 * `POST /v1/files/knowledge-bases`.
 *
 * @example
 * ```ts
 * const { knowledgeBase } = await client.createKnowledgeBase({ name: 'Docs' })
 * ```
 */
export const createKnowledgeBase = defineOperation({
  name: 'createKnowledgeBase',
  method: 'POST',
  path: '/v1/files/knowledge-bases',
  summary: 'Create a knowledge base',
  body: CreateKnowledgeBaseBodySchema,
  response: z.object({ knowledgeBase: KnowledgeBaseSchema }),
})

/**
 * `GET /v1/files/knowledge-bases`.
 *
 * @example
 * ```ts
 * const { knowledgeBases } = await client.listKnowledgeBases({ tags: { team: 'support' } })
 * ```
 */
export const listKnowledgeBases = defineOperation({
  name: 'listKnowledgeBases',
  method: 'GET',
  path: '/v1/files/knowledge-bases',
  summary: 'List knowledge bases',
  query: PageQuerySchema.extend({ tags: TagFilterSchema.optional() }),
  response: z.object({ knowledgeBases: z.array(KnowledgeBaseListItemSchema), meta: ListMetaSchema }),
})

/**
 * `PUT /v1/files/knowledge-bases/{id}`.
 *
 * @example
 * ```ts
 * await client.updateKnowledgeBase({ id: 'kb_1', name: 'Docs v2' })
 * ```
 */
export const updateKnowledgeBase = defineOperation({
  name: 'updateKnowledgeBase',
  method: 'PUT',
  path: '/v1/files/knowledge-bases/{id}',
  summary: 'Rename a knowledge base and merge its tags',
  params: IdParams,
  body: UpdateKnowledgeBaseBodySchema,
  response: z.object({ knowledgeBase: KnowledgeBaseSchema }),
})

/**
 * `DELETE /v1/files/knowledge-bases/{id}`.
 *
 * @example
 * ```ts
 * await client.deleteKnowledgeBase({ id: 'kb_1' })
 * ```
 */
export const deleteKnowledgeBase = defineOperation({
  name: 'deleteKnowledgeBase',
  method: 'DELETE',
  path: '/v1/files/knowledge-bases/{id}',
  summary: 'Delete a knowledge base',
  params: IdParams,
  body: z.object({}),
  response: EmptySchema,
})

/**
 * Every Files API operation by client method name, in the order of docs/wire-format.md §7.
 *
 * @example
 * ```ts
 * for (const op of Object.values(filesOperations)) console.log(op.method, op.path)
 * ```
 */
export const filesOperations = {
  upsertFile,
  listFiles,
  getFile,
  deleteFile,
  updateFileMetadata,
  copyFile,
  searchFiles,
  listFilePassages,
  setFilePassages,
  listFileTags,
  listFileTagValues,
  createKnowledgeBase,
  listKnowledgeBases,
  updateKnowledgeBase,
  deleteKnowledgeBase,
} as const
