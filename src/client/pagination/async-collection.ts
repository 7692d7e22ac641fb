import { PaginationError } from '../errors/client-errors.js'

/**
 * One page as a lister returns it: its items and the raw `meta` of the response.
 *
 * @example
 * ```ts
 * const page: Page<string> = { items: ['a', 'b'], meta: { nextToken: 'eyJ...' } }
 * ```
 */
export interface Page<T> {
  items: T[]
  meta: unknown
}

/**
 * Fetches one page; `nextToken` is undefined for the first one.
 *
 * @example
 * ```ts
 * const lister: PageLister<File> = async ({ nextToken }) => {
 *   const { files, meta } = await client.listFiles({ nextToken })
 *   return { items: files, meta }
 * }
 * new AsyncCollection(lister, 'listFiles')
 * ```
 */
export type PageLister<T> = (input: { nextToken?: string }) => Promise<Page<T>>

/**
 * Items of a cursor-paginated list, fetched page by page only as they are consumed. Iterate it with
 * `for await`, or gather items with `collect({ limit })`. A page without `meta`, or a `nextToken`
 * that was already used, throws `PaginationError` instead of looping forever.
 *
 * @example
 * ```ts
 * for await (const file of client.list.files({ tags: { kind: 'invoice' } })) console.log(file.key)
 * const firstTen = await client.list.files({}).collect({ limit: 10 })
 * ```
 */
export class AsyncCollection<T> implements AsyncIterable<T> {
  public constructor(
    private readonly listPage: PageLister<T>,
    /** Names the list in error messages (`listFiles`). */
    private readonly listName: string = 'list',
  ) {}

  /**
   * Yields every item, requesting the next page only when the current one is used up.
   *
   * @example
   * ```ts
   * for await (const tag of client.list.fileTags({})) if (tag === 'draft') break // no further page is requested
   * ```
   */
  public async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    const seenTokens = new Set<string>()
    let nextToken: string | undefined
    do {
      const page = await this.listPage(nextToken === undefined ? {} : { nextToken })
      nextToken = this.nextTokenOf(page, seenTokens)
      yield* page.items
    } while (nextToken !== undefined)
  }

  /**
   * Gathers the items into an array, stopping (without requesting another page) once `limit` items
   * are in. Without a limit, gathers every item.
   *
   * @example
   * ```ts
   * const files = await client.list.files({ sortField: 'key' }).collect({ limit: 50 })
   * ```
   */
  public async collect(options: { limit?: number } = {}): Promise<T[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY
    if (typeof limit !== 'number' || Number.isNaN(limit) || limit < 0) {
      throw new RangeError(`limit: expected a number >= 0, received ${String(limit)}`)
    }
    const items: T[] = []
    if (limit === 0) return items
    for await (const item of this) {
      items.push(item)
      if (items.length >= limit) break
    }
    return items
  }

  private nextTokenOf(page: Page<T>, seenTokens: Set<string>): string | undefined {
    if (!Array.isArray(page.items)) {
      throw new PaginationError(`${this.listName}: the response has no list of items (received ${typeof page.items})`)
    }
    const meta = page.meta
    if (typeof meta !== 'object' || meta === null) {
      throw new PaginationError(
        `${this.listName}: the response has no \`meta\` object (received ${meta === null ? 'null' : typeof meta}); cannot tell whether more pages exist`,
      )
    }
    const token = (meta as { nextToken?: unknown }).nextToken
    if (token === undefined || token === null || token === '') return undefined
    if (typeof token !== 'string') {
      throw new PaginationError(`${this.listName}: meta.nextToken: expected a string, received ${typeof token}`)
    }
    if (seenTokens.has(token)) {
      throw new PaginationError(
        `${this.listName}: the service returned the nextToken "${token.slice(0, 80)}" a second time; stopping instead of looping forever`,
      )
    }
    seenTokens.add(token)
    return token
  }
}
