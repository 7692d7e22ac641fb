import type { SearchPassage } from 'botshelf/client'

/**
 * What a passage's `meta` says, for people: `paragraph · page 2 · position 4` (type `chunk` is the usual and is not
 * repeated; `consolidated` and the others are).
 *
 * @example
 * ```ts
 * describeMeta({ type: 'chunk', subtype: 'list', pageNumber: 3 }) // 'list · page 3'
 * ```
 */
export function describeMeta(meta: SearchPassage['meta']): string {
  const parts: string[] = []
  if (meta.type && meta.type !== 'chunk') parts.push(meta.type)
  if (meta.subtype) parts.push(meta.subtype)
  if (meta.pageNumber !== undefined) parts.push(`page ${meta.pageNumber}`)
  if (meta.position !== undefined) parts.push(`position ${meta.position}`)
  return parts.join(' · ') || 'passage'
}
