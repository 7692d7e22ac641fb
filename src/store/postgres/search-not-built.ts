import { BotshelfError } from '../../errors/index.js'
import type { SearchIndexPort, SearchUsage } from '../search/index.js'

function notBuilt(method: string): Promise<never> {
  return Promise.reject(
    new BotshelfError(
      'MethodNotFound',
      'SEARCH_NOT_BUILT',
      `search is not built on PostgreSQL yet (search.${method}); use the embedded SQLite backend for searchFiles and file passages`,
      { method: `search.${method}` },
    ),
  )
}

/**
 * The search index port of a PostgreSQL backend until the PostgreSQL search adapter is part of the build.
 * Searching, listing and storing passages reject with `BotshelfError` `SEARCH_NOT_BUILT` (405 `MethodNotFound`,
 * never a 500), so `searchFiles` says plainly what is missing. Deleting a file's passages and counting them answer
 * truthfully instead: no passage is ever stored here, so there are none to delete or count; that keeps uploads and
 * quotas working while search is missing.
 *
 * @example
 * ```ts
 * await searchNotBuiltOnPostgres().search({ botId, scope: { kind: 'all' }, text: 'refund', limit: 5 }) // rejects: SEARCH_NOT_BUILT
 * await searchNotBuiltOnPostgres().deleteFilePassages(fileId) // 0
 * ```
 */
export function searchNotBuiltOnPostgres(): SearchIndexPort {
  return {
    replacePassages: () => notBuilt('replacePassages'),
    search: () => notBuilt('search'),
    listPassages: () => notBuilt('listPassages'),
    passagesAround: () => notBuilt('passagesAround'),
    deleteFilePassages: () => Promise.resolve(0),
    usage: (): Promise<SearchUsage> => Promise.resolve({ passages: 0, passageBytes: 0, vectorBytes: 0 }),
  }
}
