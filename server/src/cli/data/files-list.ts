import type { Client, File } from 'botshelf/client'

/**
 * Every file of the bot whose key starts with `prefix` (all of them without one), sorted by key, read page by
 * page. The Files API has no prefix filter, so the prefix is applied here.
 *
 * @example
 * ```ts
 * const files = await listFilesUnder(client, 'docs/', {}, signal)
 * ```
 */
export async function listFilesUnder(client: Client, prefix: string | undefined, tags: Record<string, string>, signal: AbortSignal): Promise<File[]> {
  const files: File[] = []
  const input = { sortField: 'key' as const, sortDirection: 'asc' as const, ...(Object.keys(tags).length > 0 ? { tags } : {}) }
  for await (const file of client.list.files(input, { signal })) {
    if (prefix === undefined || file.key.startsWith(prefix)) files.push(file)
  }
  return files
}
