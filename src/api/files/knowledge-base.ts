import { z } from 'zod'

/**
 * A knowledge base as create/update return it (docs/wire-format.md §12).
 *
 * @example
 * ```ts
 * KnowledgeBaseSchema.parse({ id: 'kb_01J...', name: 'Docs', tags: {} })
 * ```
 */
export const KnowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.record(z.string(), z.string()),
})

/** A knowledge base. */
export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>

/**
 * A knowledge base as `listKnowledgeBases` returns it: with its creation date.
 *
 * @example
 * ```ts
 * KnowledgeBaseListItemSchema.parse({ id: 'kb_1', name: 'Docs', tags: {}, createdAt: '2026-11-22T00:00:00.000Z' })
 * ```
 */
export const KnowledgeBaseListItemSchema = KnowledgeBaseSchema.extend({ createdAt: z.string() })

/** A knowledge base in a list. */
export type KnowledgeBaseListItem = z.infer<typeof KnowledgeBaseListItemSchema>
