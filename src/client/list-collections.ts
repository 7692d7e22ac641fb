import type * as filesOps from '../api/files/operations.js'
import type * as tablesOps from '../api/tables/operations.js'
import type { CallOptions } from './http/call-options.js'
import type { ClientInput, ClientOutput, Simplify } from './operation-types.js'
import { AsyncCollection } from './pagination/async-collection.js'

/**
 * The input of a list operation without `nextToken` (the collection manages it).
 *
 * @example
 * ```ts
 * const input: ListInput<typeof listFiles> = { tags: { kind: 'doc' }, pageSize: 50 }
 * ```
 */
export type ListInput<TOp> = Simplify<Omit<ClientInput<TOp>, 'nextToken'>>

type Item<TOp, K extends string> = ClientOutput<TOp> extends { [P in K]: Array<infer T> } ? T : never

/** The list operations the collections page through. */
interface ListSource {
  listFiles(input: ClientInput<typeof filesOps.listFiles>, options?: CallOptions): Promise<ClientOutput<typeof filesOps.listFiles>>
  listFilePassages(
    input: ClientInput<typeof filesOps.listFilePassages>,
    options?: CallOptions,
  ): Promise<ClientOutput<typeof filesOps.listFilePassages>>
  listFileTags(input: ClientInput<typeof filesOps.listFileTags>, options?: CallOptions): Promise<ClientOutput<typeof filesOps.listFileTags>>
  listFileTagValues(
    input: ClientInput<typeof filesOps.listFileTagValues>,
    options?: CallOptions,
  ): Promise<ClientOutput<typeof filesOps.listFileTagValues>>
  listKnowledgeBases(
    input: ClientInput<typeof filesOps.listKnowledgeBases>,
    options?: CallOptions,
  ): Promise<ClientOutput<typeof filesOps.listKnowledgeBases>>
  listTables(input: ClientInput<typeof tablesOps.listTables>, options?: CallOptions): Promise<ClientOutput<typeof tablesOps.listTables>>
}

/**
 * `client.list`: every cursor-paginated list as an `AsyncCollection` (async-iterable item by item,
 * with `collect({ limit })`). Pages are requested lazily; the call options (`signal`, ...) apply to
 * every page request.
 *
 * @example
 * ```ts
 * for await (const file of client.list.files({ tags: { kind: 'invoice' } })) console.log(file.key)
 * const tables = await client.list.tables().collect()
 * ```
 */
export interface ListCollections {
  /**
   * Every file the caller may access.
   * @example
   * ```ts
   * const files = await client.list.files({ sortField: 'key', sortDirection: 'asc' }).collect({ limit: 100 })
   * ```
   */
  files(input?: ListInput<typeof filesOps.listFiles>, options?: CallOptions): AsyncCollection<Item<typeof filesOps.listFiles, 'files'>>
  /**
   * Every passage of an indexed file.
   * @example
   * ```ts
   * for await (const passage of client.list.filePassages({ id: 'guide.pdf' })) console.log(passage.content)
   * ```
   */
  filePassages(
    input: ListInput<typeof filesOps.listFilePassages>,
    options?: CallOptions,
  ): AsyncCollection<Item<typeof filesOps.listFilePassages, 'passages'>>
  /**
   * Every distinct tag key in use.
   * @example
   * ```ts
   * const keys = await client.list.fileTags().collect()
   * ```
   */
  fileTags(input?: ListInput<typeof filesOps.listFileTags>, options?: CallOptions): AsyncCollection<string>
  /**
   * Every distinct value of one tag.
   * @example
   * ```ts
   * const categories = await client.list.fileTagValues({ tag: 'category' }).collect()
   * ```
   */
  fileTagValues(input: ListInput<typeof filesOps.listFileTagValues>, options?: CallOptions): AsyncCollection<string>
  /**
   * Every knowledge base.
   * @example
   * ```ts
   * const kbs = await client.list.knowledgeBases({ tags: { team: 'support' } }).collect()
   * ```
   */
  knowledgeBases(
    input?: ListInput<typeof filesOps.listKnowledgeBases>,
    options?: CallOptions,
  ): AsyncCollection<Item<typeof filesOps.listKnowledgeBases, 'knowledgeBases'>>
  /**
   * Every table of the bot (a botshelf addition: `@botpress/client` has no `list.tables`).
   * @example
   * ```ts
   * for await (const table of client.list.tables()) console.log(table.name)
   * ```
   */
  tables(input?: ListInput<typeof tablesOps.listTables>, options?: CallOptions): AsyncCollection<Item<typeof tablesOps.listTables, 'tables'>>
}

/**
 * Builds the `list` collections over a client's list operations.
 *
 * @example
 * ```ts
 * const list = createListCollections(client)
 * await list.fileTags().collect()
 * ```
 */
export function createListCollections(source: ListSource): ListCollections {
  return {
    files: (input = {}, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listFiles({ ...input, nextToken }, options), 'files'),
        'listFiles',
      ),
    filePassages: (input, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listFilePassages({ ...input, nextToken }, options), 'passages'),
        'listFilePassages',
      ),
    fileTags: (input = {}, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listFileTags({ ...input, nextToken }, options), 'tags'),
        'listFileTags',
      ),
    fileTagValues: (input, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listFileTagValues({ ...input, nextToken }, options), 'values'),
        'listFileTagValues',
      ),
    knowledgeBases: (input = {}, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listKnowledgeBases({ ...input, nextToken }, options), 'knowledgeBases'),
        'listKnowledgeBases',
      ),
    tables: (input = {}, options) =>
      new AsyncCollection(
        async ({ nextToken }) => pageOf(await source.listTables({ ...input, nextToken }, options), 'tables'),
        'listTables',
      ),
  }
}

/** Picks the items and `meta` of a list response; the collection validates both. */
function pageOf<R extends object, K extends keyof R>(response: R, key: K): { items: R[K] extends Array<infer T> ? T[] : never; meta: unknown } {
  const record = response as Record<PropertyKey, unknown>
  return { items: record[key] as R[K] extends Array<infer T> ? T[] : never, meta: record['meta'] }
}
