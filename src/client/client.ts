import { downloadFile, type DownloadedFile } from './files/download-file.js'
import { uploadFile, type UploadFileInput, type UploadFileOutput } from './files/upload-file.js'
import type { CallOptions } from './http/call-options.js'
import { createListCollections, type ListCollections } from './list-collections.js'
import type { ClientOptions } from './options.js'
import { WebhooksClient } from './webhooks/webhooks-client.js'

/**
 * The botshelf storage client: every Files and Tables operation with the method names and shapes of
 * `@botpress/client`, the Webhooks API of storage events, plus `uploadFile`, `downloadFile` and the `list` collections.
 *
 * @example
 * ```ts
 * import { Client } from 'botshelf/client'
 *
 * const client = new Client({ token: 'bp_pat_abc', botId: 'my-bot' })
 * const { file } = await client.uploadFile({ key: 'hello.txt', content: 'Hello!' })
 * const { rows } = await client.findTableRows({ table: 'ordersTable', filter: { total: { $gt: 100 } } })
 * for await (const f of client.list.files({ tags: { kind: 'invoice' } })) console.log(f.key)
 * ```
 */
export class Client extends WebhooksClient {
  /**
   * Every cursor-paginated list as a lazy collection: `files`, `filePassages`, `fileTags`,
   * `fileTagValues`, `knowledgeBases` and `tables`.
   *
   * @example
   * ```ts
   * const firstHundred = await client.list.files({ sortField: 'key' }).collect({ limit: 100 })
   * ```
   */
  public readonly list: ListCollections

  /**
   * Creates a client. Every option is optional: `token`, `botId`, `apiUrl` and `integrationId` fall
   * back to `BP_TOKEN`, `BP_BOT_ID`, `BP_API_URL` and `BP_INTEGRATION_ID`, and `apiUrl` defaults to
   * the local botshelf address `http://127.0.0.1:3000`.
   *
   * @example
   * ```ts
   * const client = new Client({ token: process.env.MY_TOKEN, botId: 'my-bot', apiUrl: 'http://127.0.0.1:3000', retry: { retries: 3 } })
   * const inProcess = new Client({ token, botId, fetch: (request) => app.fetch(request) })
   * ```
   */
  public constructor(options: ClientOptions = {}) {
    super(options)
    this.list = createListCollections(this)
  }

  /**
   * Creates or replaces a file and uploads its content in one step: `upsertFile`, then a PUT of the
   * bytes to the `uploadUrl` (without auth headers). `content` may be text, bytes, a Blob, a web
   * `ReadableStream` or a Node `Readable`; give `size` with a stream to send it without buffering.
   * `url` downloads the content from a URL instead. Resolves like `upsertFile` (status is not
   * refreshed). Failures throw `UploadFileError` (with `file` once it was upserted).
   *
   * @example
   * ```ts
   * const { file } = await client.uploadFile({ key: 'notes.txt', content: 'hello', tags: { kind: 'note' } })
   * const stat = await fs.promises.stat('video.mp4')
   * await client.uploadFile({ key: 'video.mp4', content: fs.createReadStream('video.mp4'), size: stat.size })
   * ```
   */
  public readonly uploadFile = (input: UploadFileInput, options?: CallOptions): Promise<UploadFileOutput> =>
    uploadFile({ transport: this.transport, upsertFile: this.upsertFile }, input, options)

  /**
   * Gets a file and its content: resolves to `{ file, response }` where `response` is the unread
   * content `Response` (`await response.text()`, `response.arrayBuffer()`, or stream `response.body`).
   * A botshelf addition; `@botpress/client` has no download helper.
   *
   * @example
   * ```ts
   * const { file, response } = await client.downloadFile({ id: 'notes.txt' })
   * const text = await response.text()
   * ```
   */
  public readonly downloadFile = (input: { id: string }, options?: CallOptions): Promise<DownloadedFile> =>
    downloadFile({ transport: this.transport, getFile: this.getFile }, input, options)
}
