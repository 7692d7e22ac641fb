import type { File } from '../../api/files/file.js'
import type { CallOptions } from '../http/call-options.js'
import type { Transport } from '../http/transport.js'

/**
 * What `downloadFile` resolves to: the file (from `getFile`) and the content `Response`, whose body
 * has not been read yet: read it with `response.text()`, `response.arrayBuffer()`, `response.blob()`,
 * or stream `response.body`.
 *
 * @example
 * ```ts
 * const { file, response } = await client.downloadFile({ id: 'notes.txt' })
 * console.log(file.contentType, await response.text())
 * ```
 */
export interface DownloadedFile {
  file: File
  response: Response
}

/** What `downloadFile` needs from the client. */
export interface DownloadContext {
  transport: Transport
  getFile: (input: { id: string }, options?: CallOptions) => Promise<{ file: File }>
}

/**
 * Fetches a file's record (`getFile`, which returns a fresh content URL) and then its content from
 * `file.url`. The content request carries no auth headers (the URL authorizes itself) and goes
 * through the client's `fetch`, so it also works against an in-process server. The time limit covers
 * the wait for the response headers; the caller's `signal` can still cancel the body stream.
 *
 * @example
 * ```ts
 * const { response } = await downloadFile(context, { id: 'report.pdf' })
 * const bytes = new Uint8Array(await response.arrayBuffer())
 * ```
 */
export async function downloadFile(context: DownloadContext, input: { id: string }, options: CallOptions = {}): Promise<DownloadedFile> {
  const { file } = await context.getFile({ id: input.id }, options)
  const response = await context.transport.send(
    {
      method: 'GET',
      url: file.url,
      retryable: true,
      streamBody: true,
      build: (signal) => new Request(file.url, { method: 'GET', signal }),
      read: async (r) => r,
    },
    options,
  )
  return { file, response }
}
