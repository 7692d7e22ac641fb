import type { Client } from '../client/index.js'
import type { BotEvent, Kb } from '../event/index.js'

/** The tag Botpress's knowledge-base tooling puts on every file of a knowledge base, and its value. */
const KB_SOURCE_TAG = { source: 'knowledge-base' } as const

/** One passage found for the event, as {@link searchKnowledgeBases} puts it in `event.kb.results`. */
export type KnowledgeBaseResult = {
  /** The passage text. */
  content: string
  /** Its rank score (higher is closer; only comparable within one search). */
  score: number
  /** The knowledge base the file belongs to (its `kbId` tag), when tagged. */
  kbId?: string
  /** The file the passage comes from. */
  fileId: string
  fileKey: string
  /** Where the passage sits in the file. */
  meta: { subtype?: string; pageNumber?: number; position?: number }
}

/** Options of {@link searchKnowledgeBases}. */
export interface KnowledgeBaseSearchOptions {
  /**
   * The knowledge bases to search (their ids, as in the files' `kbId` tag). Default: every file tagged
   * `source: knowledge-base`.
   *
   * @example
   * ```ts
   * await searchKnowledgeBases(client, event, { kbIds: ['kb_handbook'] })
   * ```
   */
  kbIds?: ReadonlyArray<string>
  /**
   * Most results (1 to 50). Default 5.
   *
   * @example
   * ```ts
   * await searchKnowledgeBases(client, event, { limit: 3 })
   * ```
   */
  limit?: number
  /**
   * The query; default: the event's text (`payload.text`). Events without text and without `query` search nothing.
   *
   * @example
   * ```ts
   * await searchKnowledgeBases(client, event, { query: 'refund policy' })
   * ```
   */
  query?: string
  /**
   * Aborts the search (pass the handler's `signal`).
   *
   * @example
   * ```ts
   * handler: ({ event, client, signal }) => searchKnowledgeBases(client, event, { signal })
   * ```
   */
  signal?: AbortSignal
}

/** The longest query `searchFiles` accepts, in UTF-8 bytes. */
const QUERY_MAX_BYTES = 1024

/**
 * Runs a knowledge-base search for an event through the storage client (`searchFiles` with the event's text as the
 * query, filtered to knowledge-base files) and returns the result in the shape of `event.kb`: `included` lists the
 * knowledge bases searched (`[{ id }]`, or `[{ source: 'knowledge-base' }]` when all were), `results` the passages,
 * best first. An event with no text gives `results: []` without a request. A long text is cut to the query limit on
 * a character boundary rather than refused, because a user's long message is still worth searching for.
 *
 * @example
 * ```ts
 * const answerFromDocs = defineHook({
 *   name: 'kb', point: 'beforeIncoming', types: ['text'],
 *   handler: async ({ event, client, signal }) => ({ ...event, kb: await searchKnowledgeBases(client, event, { signal }) }),
 * })
 * ```
 */
export async function searchKnowledgeBases(client: Client, event: BotEvent, options: KnowledgeBaseSearchOptions = {}): Promise<Kb & { results: KnowledgeBaseResult[] }> {
  const kbIds = options.kbIds ? [...options.kbIds] : undefined
  const included = kbIds ? kbIds.map((id) => ({ id })) : [{ ...KB_SOURCE_TAG }]
  const query = truncateUtf8((options.query ?? textOf(event)).trim(), QUERY_MAX_BYTES)
  if (query === '' || kbIds?.length === 0) return { included, results: [] }
  const tags: Record<string, string | string[]> = { ...KB_SOURCE_TAG }
  if (kbIds) tags.kbId = kbIds
  const { passages } = await client.searchFiles(
    { query, tags, limit: options.limit ?? 5 },
    options.signal ? { signal: options.signal } : undefined,
  )
  const results = passages.map((passage): KnowledgeBaseResult => {
    const kbId = passage.file.tags.kbId
    const meta = passage.meta as { subtype?: string; pageNumber?: number; position?: number }
    return {
      content: passage.content,
      score: passage.score,
      ...(kbId !== undefined ? { kbId } : {}),
      fileId: passage.file.id,
      fileKey: passage.file.key,
      meta: {
        ...(meta.subtype !== undefined ? { subtype: meta.subtype } : {}),
        ...(meta.pageNumber !== undefined ? { pageNumber: meta.pageNumber } : {}),
        ...(meta.position !== undefined ? { position: meta.position } : {}),
      },
    }
  })
  return { included, results }
}

/** The text of a text-like event (`payload.text`), or ''. */
function textOf(event: BotEvent): string {
  const text = (event.payload as { text?: unknown } | undefined)?.text
  return typeof text === 'string' ? text : ''
}

/** The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
function truncateUtf8(text: string, maxBytes: number): string {
  const encoder = new TextEncoder()
  if (encoder.encode(text).length <= maxBytes) return text
  let bytes = 0
  let end = 0
  for (const char of text) {
    const size = encoder.encode(char).length
    if (bytes + size > maxBytes) break
    bytes += size
    end += char.length
  }
  return text.slice(0, end)
}
