import type { Hono } from 'hono'
import { filesLimits, listFilePassages, normalizeTagFilter, searchFiles, setFilePassages } from 'botshelf/api'
import { isPagePosition, decodeCursor, encodeCursor, queryFingerprint } from '../../http/cursor.js'
import type { AppEnv } from '../../http/env.js'
import { registerRoute } from '../../http/register-route.js'
import { ServiceError } from '../../http/service-error.js'
import type { FileRecord } from '../../store/index.js'
import { resolveFile } from '../../files/file-resolver.js'
import { enqueueIndexing } from '../indexing/enqueue-indexing.js'
import type { IndexingOptions } from '../indexing/indexing-options.js'
import { canUseFiles, listScopeFor } from '../../files/permissions.js'
import { toWirePassage } from './passage-view.js'
import { embedQuery } from '../embedding/index.js'
import { shapeResults } from './search-results.js'
import { DEFAULT_RELEVANCE_FLOOR } from '../ranking/index.js'

/**
 * Registers `searchFiles`, `listFilePassages` and `setFilePassages` on the files router (before `/v1/files/{id}`).
 * Search runs the caller's scope and tag filter inside the index query; when the embedder does not answer it ranks
 * by words alone instead of failing.
 *
 * @example
 * ```ts
 * registerSearchRoutes(router, { embedder })
 * ```
 */
export function registerSearchRoutes(router: Hono<AppEnv>, indexing: IndexingOptions): void {
  registerRoute(router, {
    operation: searchFiles,
    handle: async ({ input, principal, services }) => {
      if (!canUseFiles(principal)) throw new ServiceError('Forbidden', 'This role (billing_manager) has no access to files')
      const query = input.query
      const vector = await embedQuery(indexing.embedder, query.query, services.logger)
      const hits = await services.backend.search.search({
        botId: principal.botId,
        scope: listScopeFor(principal),
        tags: normalizeTagFilter(query.tags),
        text: query.query,
        ...(vector ? { vector } : {}),
        limit: query.limit ?? filesLimits.searchResultsDefault,
        minScore: indexing.minScore ?? DEFAULT_RELEVANCE_FLOOR,
      })
      const files = new Map<string, FileRecord>()
      for (const fileId of new Set(hits.map((hit) => hit.passage.fileId))) {
        const file = await services.backend.files.getById(principal.botId, fileId)
        if (file) files.set(fileId, file)
      }
      const passages = await shapeResults(
        hits,
        files,
        {
          contextDepth: query.contextDepth ?? filesLimits.searchContextDepthDefault,
          // With consolidate, the merged passages are the context: withContext is accepted and adds nothing.
          withContext: (query.withContext ?? false) && !(query.consolidate ?? false),
          includeBreadcrumb: query.includeBreadcrumb ?? false,
          consolidate: query.consolidate ?? false,
        },
        (fileId, from, to) => services.backend.search.passagesAround(fileId, from, to),
      )
      return { passages }
    },
  })

  registerRoute(router, {
    operation: listFilePassages,
    handle: async ({ input, principal, services }) => {
      const file = await resolveFile(services.backend.files, principal, input.params.id, 'search')
      const pageSize = input.query.limit ?? input.query.pageSize ?? filesLimits.passagesPageDefault
      const fingerprint = queryFingerprint('listFilePassages', { ...input.query, limit: undefined, fileId: file.id })
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isPagePosition) : undefined
      const page = await services.backend.search.listPassages({ fileId: file.id, pageSize, ...(after ? { afterPosition: Number(after.value) } : {}) })
      const last = page.items[page.items.length - 1]
      return {
        passages: page.items.map(toWirePassage),
        meta: page.nextPosition !== undefined && last ? { nextToken: encodeCursor(services.signingKey, fingerprint, { value: page.nextPosition, id: last.id }) } : {},
      }
    },
  })

  registerRoute(router, {
    operation: setFilePassages,
    handle: async ({ input, principal, services }) => {
      await services.backend.transaction(async (tx) => {
        const file = await resolveFile(tx.files, principal, input.params.id, 'update')
        const requested = await tx.files.requestIndexing(file.id)
        await enqueueIndexing(tx, requested, { passages: input.body.passages })
      })
      services.jobs.wake()
      return {}
    },
  })
}
