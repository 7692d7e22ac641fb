import type { upsertFile } from '../../api/files/operations.js'
import { AbortError, UploadFileError } from '../errors/client-errors.js'
import type { CallOptions } from '../http/call-options.js'
import type { Transport } from '../http/transport.js'
import type { ClientInput, ClientOutput, Simplify } from '../operation-types.js'
import { prepareUploadBody, type PreparedUploadBody, type UploadContent } from './upload-body.js'

/**
 * Input of `uploadFile`: the `upsertFile` fields except `size`, plus exactly one of `content` and
 * `url`. `size` may be given for a stream, so it is sent without being read into memory first.
 *
 * @example
 * ```ts
 * const input: UploadFileInput = { key: 'docs/guide.md', content: '# Guide', tags: { kind: 'doc' } }
 * ```
 */
export type UploadFileInput = Simplify<
  Omit<ClientInput<typeof upsertFile>, 'size'> & {
    /** The bytes to upload. */
    content?: UploadContent
    /** A URL to download the bytes from (with the client's `fetch`, no auth headers). */
    url?: string
    /** Byte size of a streamed `content`; required to stream without buffering. */
    size?: number
  }
>

/**
 * What `uploadFile` resolves to: the upserted file with its `size` (same shape as `upsertFile`'s).
 *
 * @example
 * ```ts
 * const { file }: UploadFileOutput = await client.uploadFile({ key: 'a.txt', content: 'hi' })
 * ```
 */
export type UploadFileOutput = ClientOutput<typeof upsertFile>

/** What `uploadFile` needs from the client. */
export interface UploadContext {
  transport: Transport
  upsertFile: (input: ClientInput<typeof upsertFile>, options?: CallOptions) => Promise<UploadFileOutput>
}

function toError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown))
}

async function downloadSource(context: UploadContext, url: string, options: CallOptions): Promise<PreparedUploadBody> {
  try {
    const response = await context.transport.send(
      {
        method: 'GET',
        url,
        retryable: true,
        streamBody: true,
        build: (signal) => new Request(url, { method: 'GET', signal }),
        read: async (r) => r,
      },
      options,
    )
    const length = Number(response.headers.get('content-length') ?? Number.NaN)
    if (response.body && Number.isSafeInteger(length) && length >= 0) {
      return await prepareUploadBody(response.body, length)
    }
    return await prepareUploadBody(new Uint8Array(await response.arrayBuffer()))
  } catch (thrown) {
    if (thrown instanceof AbortError) throw thrown
    const error = toError(thrown)
    throw new UploadFileError(`Failed to download file from provided URL: ${error.message}`, error)
  }
}

/**
 * Creates or replaces a file and uploads its bytes: `upsertFile` with the content's size, then a
 * `PUT` of the bytes to the returned `uploadUrl` (no auth headers: the URL authorizes itself).
 * Resolves to the upserted file with its `size`; like `@botpress/client`, the file is not fetched
 * again, so `status` is the one `upsertFile` returned.
 *
 * @example
 * ```ts
 * const { file } = await uploadFile(context, { key: 'a.txt', content: 'hello' })
 * ```
 */
export async function uploadFile(context: UploadContext, input: UploadFileInput, options: CallOptions = {}): Promise<UploadFileOutput> {
  const { content, url, size: declaredSize, ...upsertFields } = input
  if (content !== undefined && url !== undefined) {
    throw new UploadFileError('Cannot provide both content and URL, please provide only one of them')
  }
  if (content === undefined && url === undefined) {
    throw new UploadFileError('No content was provided for the file')
  }
  let prepared: PreparedUploadBody
  if (url !== undefined) {
    prepared = await downloadSource(context, url, options)
  } else {
    prepared = await prepareUploadBody(content as UploadContent, declaredSize)
  }

  const { file } = await context.upsertFile({ ...upsertFields, size: prepared.size }, options)

  const headers = new Headers({ 'content-type': file.contentType, 'content-length': String(prepared.size) })
  if (upsertFields.publicContentImmediatelyAccessible) headers.set('x-amz-tagging', 'public=true')
  try {
    await context.transport.send(
      {
        method: 'PUT',
        url: file.uploadUrl,
        retryable: prepared.replayable,
        build: (signal) =>
          new Request(file.uploadUrl, {
            method: 'PUT',
            headers,
            body: prepared.body,
            signal,
            // Needed by fetch to send a stream body.
            duplex: 'half',
          } as RequestInit),
        read: async (response) => {
          await response.body?.cancel().catch(() => undefined)
        },
      },
      options,
    )
  } catch (thrown) {
    if (thrown instanceof AbortError) throw thrown
    const lengthError = prepared.lengthError?.()
    if (lengthError) throw new UploadFileError(`Failed to upload file: ${lengthError.message}`, toError(thrown), file)
    const error = thrown instanceof UploadFileError ? (thrown.innerError ?? thrown) : causeOf(thrown)
    throw new UploadFileError(`Failed to upload file: ${error.message}`, error, file)
  }
  return { file: { ...file, size: prepared.size } }
}

/** A failed stream read surfaces as a network error whose cause holds our own UploadFileError; unwrap it. */
function causeOf(thrown: unknown): Error {
  const error = toError(thrown)
  let cause: unknown = error.cause
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    if (cause instanceof UploadFileError) return cause
    cause = cause.cause
  }
  return error
}
