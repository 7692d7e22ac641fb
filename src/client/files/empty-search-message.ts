import type { Client } from '../client.js'

/** What an empty `searchFiles` answer means, as the CLI and the console say it. */
export type EmptySearchMessage = 'no indexed files' | 'no relevant passage'

/** Options of {@link emptySearchMessage}. */
export interface EmptySearchMessageOptions {
  /**
   * Aborts the `listFiles` call it makes.
   *
   * @example
   * ```ts
   * await emptySearchMessage(client, { signal: AbortSignal.timeout(5_000) })
   * ```
   */
  signal?: AbortSignal
}

/**
 * Why a search answered no passage: the bot has no file to index (`no indexed files`: upload with `index: true`),
 * or none of its passages scored above the relevance floor (`no relevant passage`). Asks `listFiles` for one file
 * with the `index` flag, within the caller's view.
 *
 * @example
 * ```ts
 * if (passages.length === 0) console.log(await emptySearchMessage(client)) // 'no relevant passage'
 * ```
 */
export async function emptySearchMessage(client: Pick<Client, 'listFiles'>, options: EmptySearchMessageOptions = {}): Promise<EmptySearchMessage> {
  const { files } = await client.listFiles({ indexed: true, pageSize: 1 }, options.signal ? { signal: options.signal } : {})
  return files.length === 0 ? 'no indexed files' : 'no relevant passage'
}
