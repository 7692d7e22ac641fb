import { z } from 'zod'

/**
 * A passage of an indexed file, as `listFilePassages` returns it (docs/wire-format.md §12).
 *
 * @example
 * ```ts
 * PassageSchema.parse({ id: 'psg_1', content: 'Hello', meta: { type: 'chunk', subtype: 'paragraph' } })
 * ```
 */
export const PassageSchema = z.object({
  id: z.string(),
  content: z.string(),
  meta: z.object({
    type: z.enum(['chunk', 'summary', 'consolidated', 'image']).optional(),
    subtype: z.enum(['title', 'subtitle', 'paragraph', 'blockquote', 'list', 'table', 'code', 'image', 'page']).optional(),
    pageNumber: z.number().int().optional(),
    position: z.number().int().optional(),
    sourceUrl: z.string().optional(),
  }),
})

/** A passage. */
export type Passage = z.infer<typeof PassageSchema>

/**
 * One search result of `searchFiles` (docs/wire-format.md §12).
 *
 * @example
 * ```ts
 * SearchPassageSchema.shape.score.parse(0.82)
 * ```
 */
export const SearchPassageSchema = z.object({
  content: z.string(),
  score: z.number(),
  meta: PassageSchema.shape.meta,
  file: z.object({
    id: z.string(),
    key: z.string(),
    contentType: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    tags: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
  context: z
    .array(
      z.object({
        id: z.string().optional(),
        text: z.string(),
        offset: z.number().int().optional(),
        type: z.enum(['preceding', 'subsequent', 'current', 'breadcrumb']),
      }),
    )
    .optional(),
})

/** A search result. */
export type SearchPassage = z.infer<typeof SearchPassageSchema>

/**
 * A passage given to `setFilePassages`, in document order.
 *
 * @example
 * ```ts
 * PassageInputSchema.parse({ content: '# Title', type: 'title' })
 * ```
 */
export const PassageInputSchema = z.strictObject({
  content: z.string(),
  type: z.enum(['title', 'subtitle', 'paragraph', 'blockquote', 'list', 'table', 'code', 'image']).optional(),
  pageNumber: z.number().int().optional(),
})

/**
 * The indexing configuration of `upsertFile` (docs/wire-format.md §12), validated with the wire's bounds (every object
 * refuses unknown keys). What each setting does, and what happens without a language model: docs/search.md,
 * "Indexing options" (decision 1435).
 *
 * @example
 * ```ts
 * IndexingConfigurationSchema.parse({ chunking: { maximumChunkLength: 800 } })
 * ```
 */
export const IndexingConfigurationSchema = z.strictObject({
  parsing: z
    .strictObject({
      mode: z.enum(['agent', 'standard']).optional(),
      minimumParagraphLength: z.number().int().min(50).max(2000).optional(),
      smartCleanup: z.boolean().optional(),
    })
    .optional(),
  chunking: z
    .strictObject({
      maximumChunkLength: z.number().int().min(100).max(5000).optional(),
      embeddedContextLevels: z.number().int().min(0).max(3).optional(),
      embedBreadcrumb: z.boolean().optional(),
    })
    .optional(),
  summarization: z
    .strictObject({
      enable: z.boolean().optional(),
      modelType: z.enum(['inexpensive', 'balanced', 'accurate']).optional(),
      minimumInputLength: z.number().int().min(1000).max(10000).optional(),
      outputTokenLimit: z.number().int().min(1000).max(10000).optional(),
      generateMasterSummary: z.boolean().optional(),
    })
    .optional(),
  stack: z.enum(['legacy', 'realtime-v1']).optional(),
  vision: z
    .strictObject({
      transcribePages: z.union([z.boolean(), z.array(z.number().int())]).optional(),
      indexPages: z.union([z.boolean(), z.array(z.number().int())]).optional(),
    })
    .optional(),
})

/** The indexing configuration of `upsertFile`. */
export type IndexingConfiguration = z.infer<typeof IndexingConfigurationSchema>
