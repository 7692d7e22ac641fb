import { Hono, type Context } from 'hono'
import {
  copyFile,
  deleteFile,
  filesLimits,
  metadataBytes,
  getFile,
  listFiles,
  listFileTags,
  listFileTagValues,
  normalizeTagFilter,
  updateFileMetadata,
  upsertFile,
} from 'botshelf/api'
import { mergePatch, type FileRecord, type FileSortField } from '../store/index.js'
import { bearerToken } from '../http/auth/bearer.js'
import type { AppEnv, AppServices } from '../http/env.js'
import { publicBaseUrl } from '../http/public-url.js'
import { registerRoute } from '../http/register-route.js'
import type { Principal } from '../http/principal.js'
import { ServiceError } from '../http/service-error.js'
import { contentTypeFromKey } from './content-type.js'
import { defaultUrlLifetimes, uploadUrlFor, type UrlLifetimes } from './content-urls.js'
import { decodeCursor, encodeCursor, isPagePosition, queryFingerprint } from '../http/cursor.js'
import { checkExpiresAt } from './expires-at.js'
import { resolveFile } from './file-resolver.js'
import { toWireFile, type FileViewContext } from './file-view.js'
import { WireFileMemo } from './wire-file-memo.js'
import type { IndexingOptions } from '../search/indexing/indexing-options.js'
import { registerKnowledgeBaseRoutes } from './knowledge-base-routes.js'
import { linksToKnowledgeBase } from './knowledge-base-link.js'
import { enqueueIndexing } from '../search/indexing/index.js'
import { registerSearchRoutes } from '../search/files/search-routes.js'
import { fileEvent } from '../webhooks/event-drafts.js'
import { canAccessFile, canCreateFile, canUseFiles, listScopeFor, ownerFor } from './permissions.js'

/** Options of {@link filesRoutes}. */
export interface FilesRoutesOptions {
  /**
   * Lifetimes of upload and private download URLs (defaults: one hour, fifteen minutes).
   *
   * @example
   * ```ts
   * filesRoutes({ urls: { uploadSeconds: 600, downloadSeconds: 120 } })
   * ```
   */
  urls?: UrlLifetimes
  /**
   * The embedder search embeds queries with (the one indexing used); without one, search ranks by words.
   *
   * @example
   * ```ts
   * filesRoutes({ indexing: { embedder } })
   * ```
   */
  indexing?: IndexingOptions
}

const isString = (value: unknown): value is string => typeof value === 'string'

/**
 * Whether an upserted file is indexed: as asked, except that a file of an existing knowledge base (tags `source:
 * knowledge-base` and `kbId`) always is, even with `index: false`, since opening it from the knowledge base needs
 * its passages; the answer shows `index: true` (decision 1436).
 */
async function mustIndex(services: AppServices, botId: string, body: { index?: boolean | undefined; tags?: Record<string, string> | undefined }): Promise<boolean> {
  return (await linksToKnowledgeBase(services.backend, botId, body.tags)) || (body.index ?? false)
}

function requireFilesAccess(principal: Principal): void {
  if (!canUseFiles(principal)) throw new ServiceError('Forbidden', 'This role (billing_manager) has no access to files')
}

/**
 * The authenticated Files API routes (docs/wire-format.md §7): every operation of `filesOperations`, with
 * permissions (docs/wire-format.md §6), versions, signed upload and content URLs, and cursor pagination. Static paths
 * (`/v1/files/search`, `/v1/files/tags`, `/v1/files/knowledge-bases`) are registered before `/v1/files/{id}`.
 *
 * @example
 * ```ts
 * const feature: ServiceFeature = { name: 'files', migrations: filesMigrations, routes: filesRoutes(), publicRoutes: filesContentRoutes() }
 * ```
 */
export function filesRoutes(options: FilesRoutesOptions = {}): Hono<AppEnv> {
  const lifetimes = options.urls ?? defaultUrlLifetimes
  const router = new Hono<AppEnv>()
  const viewAt = (base: string, services: AppServices): FileViewContext => ({
    signingKey: services.signingKey,
    base,
    now: services.now(),
    lifetimes,
    blobs: services.backend.blobs,
  })
  const view = (c: Context<AppEnv>, services: AppServices): FileViewContext => viewAt(publicBaseUrl(c), services)

  registerSearchRoutes(router, options.indexing ?? {})

  registerRoute(router, {
    operation: listFileTags,
    handle: async ({ input, principal, services }) => {
      requireFilesAccess(principal)
      const { files } = services.backend
      const fingerprint = queryFingerprint('listFileTags', input.query)
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isString) : undefined
      const page = await files.listTagKeys({
        botId: principal.botId,
        scope: listScopeFor(principal),
        pageSize: input.query.pageSize ?? filesLimits.pageSizeDefault,
        ...(after !== undefined ? { after } : {}),
      })
      return { tags: page.items, meta: page.next !== undefined ? { nextToken: encodeCursor(services.signingKey, fingerprint, page.next) } : {} }
    },
  })

  registerRoute(router, {
    operation: listFileTagValues,
    handle: async ({ input, principal, services }) => {
      requireFilesAccess(principal)
      const { files } = services.backend
      const fingerprint = queryFingerprint('listFileTagValues', { ...input.query, tag: input.params.tag })
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isString) : undefined
      const page = await files.listTagValues({
        botId: principal.botId,
        tag: input.params.tag,
        scope: listScopeFor(principal),
        pageSize: input.query.pageSize ?? filesLimits.pageSizeDefault,
        ...(after !== undefined ? { after } : {}),
      })
      return { values: page.items, meta: page.next !== undefined ? { nextToken: encodeCursor(services.signingKey, fingerprint, page.next) } : {} }
    },
  })

  registerKnowledgeBaseRoutes(router)

  registerRoute(router, {
    operation: upsertFile,
    handle: async ({ input, principal, services, c }) => {
      requireFilesAccess(principal)
      const body = input.body
      const index = await mustIndex(services, principal.botId, body)
      const now = services.now()
      const expiresAt = body.expiresAt !== undefined ? checkExpiresAt(body.expiresAt, now) : null
      const { owner, scope } = ownerFor(principal)
      const result = await services.files.define(
        {
          botId: principal.botId,
          key: body.key,
          ownerScope: scope,
          owner,
          size: body.size,
          contentType: body.contentType ?? contentTypeFromKey(body.key),
          tags: body.tags ?? {},
          metadata: body.metadata ?? {},
          accessPolicies: [...new Set(body.accessPolicies ?? [])],
          index,
          expiresAt,
          indexingConfiguration: body.indexing?.configuration ?? null,
        },
        (existing) => {
          if (existing) {
            if (!canAccessFile(principal, 'update', existing)) {
              throw new ServiceError('Forbidden', `This caller may not replace file ${JSON.stringify(body.key)}`, { id: existing.id })
            }
          } else if (!canCreateFile(principal)) {
            throw new ServiceError('Forbidden', 'This role may not create files (viewers read, search and list only)')
          }
        },
      )
      const context = view(c, services)
      return { file: { ...toWireFile(result.file, context), uploadUrl: uploadUrlFor(services.signingKey, context.base, result.file, now, lifetimes) } }
    },
  })

  registerRoute(router, {
    operation: listFiles,
    handle: async ({ input, principal, services, c }) => {
      requireFilesAccess(principal)
      const { files } = services.backend
      const query = input.query
      const sortField: FileSortField = query.sortField ?? 'createdAt'
      const sortDirection = query.sortDirection ?? 'desc'
      const fingerprint = queryFingerprint('listFiles', { ...query, sortField, sortDirection })
      const after = query.nextToken ? decodeCursor(services.signingKey, fingerprint, query.nextToken, isPagePosition) : undefined
      const page = await files.list({
        botId: principal.botId,
        scope: listScopeFor(principal),
        tags: normalizeTagFilter(query.tags),
        ...(query.ids ? { ids: query.ids } : {}),
        ...(query.indexed !== undefined ? { indexed: query.indexed } : {}),
        sortField,
        sortDirection,
        pageSize: query.pageSize ?? filesLimits.pageSizeDefault,
        ...(after ? { after } : {}),
      })
      const context = view(c, services)
      return {
        files: page.items.map((file) => toWireFile(file, context)),
        meta: page.next ? { nextToken: encodeCursor(services.signingKey, fingerprint, page.next) } : {},
      }
    },
  })

  // The hot read: also answered by the direct lane (decision 1235), its answer kept per unchanged record and second.
  const answers = new WireFileMemo()
  registerRoute(router, {
    operation: getFile,
    direct: true,
    handle: async ({ input, principal, services, baseUrl }) => {
      const file = await resolveFile(services.backend.files, principal, input.params.id, 'read')
      return answers.answer(file, viewAt(baseUrl, services))
    },
  })

  registerRoute(router, {
    operation: updateFileMetadata,
    handle: async ({ input, principal, services, c }) => {
      const now = services.now()
      const { expiresAt, ...rest } = input.body
      const checkedExpiry = expiresAt === undefined ? {} : { expiresAt: expiresAt === null ? null : checkExpiresAt(expiresAt, now) }
      // The merged tag count is checked and written in one transaction: two concurrent patches cannot pass 50 together.
      const updated = await services.webhooks.transaction(async (tx) => {
        const file = await resolveFile(tx.files, principal, input.params.id, 'update')
        const tagCount = Object.keys(mergePatch(file.tags, rest.tags)).length
        if (tagCount > filesLimits.tagsMaxCount) {
          throw new ServiceError('InvalidPayload', `tags: expected at most ${filesLimits.tagsMaxCount} tags after the merge, received ${tagCount}`)
        }
        const mergedBytes = rest.metadata === undefined ? 0 : metadataBytes(mergePatch(file.metadata, rest.metadata))
        if (mergedBytes > filesLimits.metadataMaxBytes) {
          throw new ServiceError('InvalidPayload', `metadata: expected at most ${filesLimits.metadataMaxBytes} bytes of metadata as JSON after the merge, received ${mergedBytes}`)
        }
        // Linking a file to a knowledge base later indexes it (decision 1436): marked to index, and indexed now
        // when its content is there (in this transaction, with its job), else when the content lands.
        const linked = !file.index && (await linksToKnowledgeBase(tx, file.botId, mergePatch(file.tags, rest.tags) as Record<string, string>))
        let result = await tx.files.updateMetadata(file.id, { ...rest, ...checkedExpiry, ...(linked ? { index: true as const } : {}) })
        if (linked && result.blobId && result.status === 'upload_completed') {
          result = await tx.files.requestIndexing(file.id)
          await enqueueIndexing(tx, result)
        }
        return { result, events: [fileEvent(services, 'file.updated', result, publicBaseUrl(c))] }
      })
      return { file: toWireFile(updated, view(c, services)) }
    },
  })

  registerRoute(router, {
    operation: deleteFile,
    handle: async ({ input, principal, services }) => {
      const file = await resolveFile(services.backend.files, principal, input.params.id, 'delete')
      await services.files.delete(file)
      return {}
    },
  })

  registerRoute(router, {
    operation: copyFile,
    handle: async ({ input, principal, services, c }) => {
      const source = await resolveFile(services.backend.files, principal, input.params.idOrKey, 'read')
      if (!source.blobId) {
        throw new ServiceError('InvalidPayload', `idOrKey: file ${JSON.stringify(source.key)} has no uploaded content yet; copy it once its upload completes`)
      }
      const destinationBotId = input.headers['x-destination-bot-id']?.trim() || principal.botId
      let destination: Principal = principal
      if (destinationBotId !== principal.botId) {
        const token = bearerToken(c.req.header('authorization')) ?? ''
        // The destination principal is the same token authenticated for the destination bot: only a workspace
        // member token reaches a second bot (decision 0208); its role is then checked in that bot below.
        const check = await services.backend.auth.authenticate(token, destinationBotId)
        if (!check.ok) {
          const why =
            check.reason === 'unknown_bot'
              ? 'no bot with that id in its workspace'
              : 'it is bound to one bot; copying across bots takes a workspace member token (botshelf token create --workspace)'
          throw new ServiceError('Forbidden', `This token has no access to the destination bot ${JSON.stringify(destinationBotId)}: ${why}`)
        }
        destination = check.principal
      }
      const { owner, scope } = ownerFor(destination)
      const authorize = (existing: FileRecord | undefined): void => {
        if (existing) {
          if (!input.body.overwrite) {
            throw new ServiceError('AlreadyExists', `A file with key ${JSON.stringify(input.params.destinationKey)} already exists; send overwrite: true to replace it`, {
              id: existing.id,
            })
          }
          if (!canAccessFile(destination, 'delete', existing)) {
            throw new ServiceError('Forbidden', `This caller may not overwrite file ${JSON.stringify(existing.key)}`, { id: existing.id })
          }
        } else if (!canCreateFile(destination)) {
          throw new ServiceError('Forbidden', 'This role may not create files (viewers read, search and list only)')
        }
      }
      const file = await services.files.copy(source, { botId: destinationBotId, key: input.params.destinationKey, ownerScope: scope, owner }, authorize)
      return { file: toWireFile(file, view(c, services)) }
    },
  })

  return router
}
