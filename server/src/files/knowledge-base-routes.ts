import type { Hono } from 'hono'
import {
  createKnowledgeBase,
  deleteKnowledgeBase,
  filesLimits,
  listKnowledgeBases,
  normalizeTagFilter,
  updateKnowledgeBase,
} from 'botshelf/api'
import { mergePatch, type KnowledgeBaseRecord } from '../store/index.js'
import type { AppEnv } from '../http/env.js'
import { registerRoute } from '../http/register-route.js'
import type { Principal } from '../http/principal.js'
import { ServiceError } from '../http/service-error.js'
import { decodeCursor, encodeCursor, isPagePosition, queryFingerprint } from '../http/cursor.js'
import { canManageKnowledgeBases, canUseFiles } from './permissions.js'

function requireManage(principal: Principal): void {
  if (!canManageKnowledgeBases(principal)) {
    throw new ServiceError('Forbidden', 'This role may not create, change or delete knowledge bases')
  }
}

function notFound(id: string): ServiceError {
  return new ServiceError('ResourceNotFound', `Knowledge base ${JSON.stringify(id)} not found`, { id })
}

function wire(kb: KnowledgeBaseRecord): { id: string; name: string; tags: Record<string, string> } {
  return { id: kb.id, name: kb.name, tags: kb.tags }
}

/**
 * Registers the knowledge base operations (create, list, update, delete) on the files router. Knowledge bases
 * belong to the bot: bots, integrations, Developers, Managers and Administrators manage them; Viewers list them.
 *
 * @example
 * ```ts
 * const router = new Hono<AppEnv>()
 * registerKnowledgeBaseRoutes(router)
 * ```
 */
export function registerKnowledgeBaseRoutes(router: Hono<AppEnv>): void {
  registerRoute(router, {
    operation: createKnowledgeBase,
    handle: async ({ input, principal, services }) => {
      requireManage(principal)
      const kb = await services.backend.knowledgeBases.create({
        botId: principal.botId,
        name: input.body.name,
        tags: input.body.tags ?? {},
      })
      return { knowledgeBase: wire(kb) }
    },
  })

  registerRoute(router, {
    operation: listKnowledgeBases,
    handle: async ({ input, principal, services }) => {
      if (!canUseFiles(principal)) throw new ServiceError('Forbidden', 'This role (billing_manager) has no access to files')
      const fingerprint = queryFingerprint('listKnowledgeBases', input.query)
      const after = input.query.nextToken ? decodeCursor(services.signingKey, fingerprint, input.query.nextToken, isPagePosition) : undefined
      const page = await services.backend.knowledgeBases.list({
        botId: principal.botId,
        tags: normalizeTagFilter(input.query.tags),
        pageSize: input.query.pageSize ?? filesLimits.pageSizeDefault,
        ...(after ? { after } : {}),
      })
      return {
        knowledgeBases: page.items.map((kb) => ({ ...wire(kb), createdAt: kb.createdAt })),
        meta: page.next ? { nextToken: encodeCursor(services.signingKey, fingerprint, page.next) } : {},
      }
    },
  })

  registerRoute(router, {
    operation: updateKnowledgeBase,
    handle: async ({ input, principal, services }) => {
      requireManage(principal)
      // Check the merged tag count and write in one transaction, so two concurrent updates cannot pass 50 together.
      const kb = await services.backend.transaction(async (tx) => {
        const current = await tx.knowledgeBases.get(principal.botId, input.params.id)
        if (!current) throw notFound(input.params.id)
        const tagCount = Object.keys(mergePatch(current.tags, input.body.tags)).length
        if (tagCount > filesLimits.tagsMaxCount) {
          throw new ServiceError('InvalidPayload', `tags: expected at most ${filesLimits.tagsMaxCount} tags after the merge, received ${tagCount}`)
        }
        return tx.knowledgeBases.update(principal.botId, input.params.id, input.body)
      })
      if (!kb) throw notFound(input.params.id)
      return { knowledgeBase: wire(kb) }
    },
  })

  registerRoute(router, {
    operation: deleteKnowledgeBase,
    handle: async ({ input, principal, services }) => {
      requireManage(principal)
      if (!(await services.backend.knowledgeBases.delete(principal.botId, input.params.id))) throw notFound(input.params.id)
      return {}
    },
  })
}
