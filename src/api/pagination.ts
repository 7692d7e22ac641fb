import { z } from 'zod'

/**
 * The `meta` object of every cursor-paginated list (docs/wire-format.md §4). Always present; `nextToken`
 * only when more results exist.
 *
 * @example
 * ```ts
 * ListMetaSchema.parse({}) // last page
 * ListMetaSchema.parse({ nextToken: 'eyJ...' })
 * ```
 */
export const ListMetaSchema = z.object({
  nextToken: z.string().optional(),
})

/** The `meta` object of a list response. */
export type ListMeta = z.infer<typeof ListMetaSchema>
