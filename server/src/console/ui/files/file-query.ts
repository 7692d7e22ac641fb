import type { Client, File as StoredFile, TagFilter } from 'botshelf/client'

/** What the files list asks for: order, tag filters and a key search. */
export interface FileQuery {
  sortField: 'key' | 'size' | 'createdAt' | 'updatedAt' | 'status'
  sortDirection: 'asc' | 'desc'
  /** Tag key → accepted values (any of them). */
  tags: Record<string, string[]>
  /** Part of the key to look for (case-insensitive); '' for every file. */
  keySearch: string
}

/** One screen of the list: its files, the cursor of the next one, and how many files were read to fill it. */
export interface FilePage {
  files: StoredFile[]
  nextToken: string | undefined
  scanned: number
}

/** At most this many service pages are read to fill one screen of key-search results. */
export const MAX_SCAN_PAGES = 20

/**
 * The service's tag filter for the list's tag conditions.
 *
 * @example
 * ```ts
 * tagFilterOf({ kind: ['invoice', 'receipt'] }) // { kind: ['invoice', 'receipt'] }
 * ```
 */
export function tagFilterOf(tags: Record<string, string[]>): TagFilter | undefined {
  const entries = Object.entries(tags).filter(([, values]) => values.length > 0)
  if (entries.length === 0) return undefined
  return Object.fromEntries(entries.map(([key, values]) => [key, values.length === 1 ? values[0]! : values]))
}

/**
 * Reads one screen from `startToken`. The list API has no key search (decision 1105), so with `keySearch` the
 * console keeps reading service pages, keeping the keys that contain it, until the screen is full, the list ends,
 * or {@link MAX_SCAN_PAGES} pages were read; the next screen continues from there.
 *
 * @example
 * ```ts
 * const page = await loadFilePage(api.client, query, undefined, 50)
 * ```
 */
export async function loadFilePage(client: Client, query: FileQuery, startToken: string | undefined, size: number): Promise<FilePage> {
  const tags = tagFilterOf(query.tags)
  const needle = query.keySearch.trim().toLowerCase()
  const files: StoredFile[] = []
  let token = startToken
  let scanned = 0
  for (let pages = 0; pages < (needle ? MAX_SCAN_PAGES : 1); pages += 1) {
    const { files: batch, meta } = await client.listFiles({
      sortField: query.sortField,
      sortDirection: query.sortDirection,
      pageSize: needle ? 100 : size,
      ...(tags ? { tags } : {}),
      ...(token ? { nextToken: token } : {}),
    })
    scanned += batch.length
    files.push(...(needle ? batch.filter((file) => file.key.toLowerCase().includes(needle)) : batch))
    token = meta.nextToken ?? undefined
    if (!token || files.length >= size) break
  }
  return { files, nextToken: token, scanned }
}
