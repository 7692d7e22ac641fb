import type { TagFilter } from 'botshelf/client'
import { tagFilterOf } from '../files/file-query.js'

/** The service's bound on a search query, in UTF-8 bytes (docs/search.md, Limits). */
export const QUERY_MAX_BYTES = 1024

/** The service's bounds on `limit` (docs/search.md, Limits); the console's default is 10. */
export const RESULT_LIMIT = { min: 1, max: 50, default: 10 } as const

/** What the Search page's form holds. */
export interface SearchForm {
  query: string
  /** Tag key → accepted values (any of them), as the files list's tag filter. */
  tags: Record<string, string[]>
  /** Results asked for; undefined leaves the service's default (20). */
  limit: number | undefined
  withContext: boolean
}

/**
 * The length of a query as the service counts it: UTF-8 bytes, not characters (`€` is 3).
 *
 * @example
 * ```ts
 * queryBytes('prix €') // 8
 * ```
 */
export function queryBytes(query: string): number {
  return new TextEncoder().encode(query).length
}

/**
 * What the form says about the query's size before sending it: its bytes and whether the service will refuse it.
 * The console still sends an over-long query when asked (decision 1106), so the refusal shown is the service's own.
 *
 * @example
 * ```ts
 * querySizeOf('x'.repeat(1025)) // { bytes: 1025, tooLong: true, text: '1025 / 1024 bytes: too long' }
 * ```
 */
export function querySizeOf(query: string): { bytes: number; tooLong: boolean; text: string } {
  const bytes = queryBytes(query)
  const tooLong = bytes > QUERY_MAX_BYTES
  return { bytes, tooLong, text: `${bytes} / ${QUERY_MAX_BYTES} bytes${tooLong ? ': too long' : ''}` }
}

/**
 * The `searchFiles` input for the form: the query as typed (the service trims nothing and checks everything), the
 * tag filter when there is one, the limit, and with context the breadcrumb as an entry of its own.
 *
 * @example
 * ```ts
 * searchInputOf({ query: 'refund', tags: { team: ['support'] }, limit: 10, withContext: true })
 * // { query: 'refund', limit: 10, tags: { team: 'support' }, withContext: true, includeBreadcrumb: true }
 * ```
 */
export function searchInputOf(form: SearchForm): SearchInput {
  const tags: TagFilter | undefined = tagFilterOf(form.tags)
  return {
    query: form.query,
    ...(form.limit !== undefined ? { limit: form.limit } : {}),
    ...(tags ? { tags } : {}),
    ...(form.withContext ? { withContext: true, includeBreadcrumb: true } : {}),
  }
}

/** The subset of `searchFiles`' input the console sends. */
export interface SearchInput {
  query: string
  limit?: number
  tags?: TagFilter
  withContext?: true
  includeBreadcrumb?: true
}
