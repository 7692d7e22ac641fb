import { invalidFromIssues, ServiceError } from './service-error.js'
import { parseJsonBytes, type JsonParseOutcome } from './json-parse.js'
import { parseJsonOffThread } from './json-parse-pool.js'
import { guardedBody } from './node-body.js'

/**
 * JSON payload limit of the Files API (docs/wire-format.md §5): 1 MB.
 *
 * @example
 * ```ts
 * registerOperation(router, op, handler, { bodyLimit: FILES_JSON_LIMIT })
 * ```
 */
export const FILES_JSON_LIMIT = 1024 * 1024
/**
 * JSON payload limit of the Tables API (docs/wire-format.md §5): 40 MB.
 *
 * @example
 * ```ts
 * await readJsonBody(c.req.raw, TABLES_JSON_LIMIT)
 * ```
 */
export const TABLES_JSON_LIMIT = 40 * 1024 * 1024

function tooLarge(limit: number): ServiceError {
  return new ServiceError('PayloadTooLarge', `The request payload is larger than the limit of ${limit} bytes`, { limit })
}

function bodyBrokeOff(received: number, cause: unknown): ServiceError {
  const reason = cause instanceof Error ? cause.message : String(cause)
  return new ServiceError('InvalidPayload', `The request body broke off after ${received} bytes (${reason}); send the whole body again`, {
    bytesReceived: received,
  })
}

/**
 * Reads a request body as bytes, counting the bytes actually received while streaming: a declared
 * `Content-Length` over the limit is refused before reading anything, and a body that grows past the limit
 * is cancelled as soon as it does (413 `PayloadTooLarge`), never buffered whole. A body that breaks off (the
 * client closed the connection) is a 400 `InvalidPayload`, not a server error.
 *
 * @example
 * ```ts
 * const bytes = await readBodyBytes(c.req.raw, FILES_JSON_LIMIT)
 * ```
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit)
  // Under the body deadline, a body of a declared length that came through createServer is read from the socket
  // stream (decision 1471): the parser holds it to that length, which is within the limit.
  const guard = guardedBody(request)
  if (guard) {
    try {
      return await guard.readAll()
    } catch (error) {
      throw bodyBrokeOff(guard.received, error)
    }
  }
  if (request.body === null) return Buffer.alloc(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>
    try {
      next = await reader.read()
    } catch (error) {
      // The client went away (or its body stream failed) mid-body: a caller's fault, not a server error.
      throw bodyBrokeOff(received, error)
    }
    const { done, value } = next
    if (done) break
    received += value.byteLength
    if (received > limit) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge(limit)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks, received)
}

/**
 * Reads a request body as UTF-8 text within a byte limit (see {@link readBodyBytes}).
 *
 * @example
 * ```ts
 * const text = await readBodyText(c.req.raw, FILES_JSON_LIMIT)
 * ```
 */
export async function readBodyText(request: Request, limit: number): Promise<string> {
  return (await readBodyBytes(request, limit)).toString('utf8')
}

/**
 * Bodies from this size up are decoded, checked and parsed on a worker thread: `JSON.parse` of a 40 MB table
 * payload holds the thread for most of a second, and every other request would wait that long.
 */
export const OFF_THREAD_JSON_BYTES = 256 * 1024

/**
 * Reads and parses a JSON body within a byte limit. An empty body gives `undefined`; malformed JSON is an
 * `InvalidPayload` naming the parse error. Before parsing, the text is checked against the input bounds
 * (docs/decisions/0701-input-bounds.md): more than 64 levels of nesting, or a key `"__proto__"` anywhere, is an
 * `InvalidPayload` naming the path (`Invalid request body: metadata.a.a.a…: expected at most 64 levels of
 * nesting, received more than 64`), so nothing after this point meets a value that recursion cannot handle.
 * Bodies of {@link OFF_THREAD_JSON_BYTES} or more are parsed off the event loop with the same rules.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(c.req.raw, TABLES_JSON_LIMIT)
 * ```
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const bytes = await readBodyBytes(request, limit)
  const outcome = bytes.byteLength >= OFF_THREAD_JSON_BYTES ? await parseOffThreadOrRefuse(bytes) : parseJsonBytes(bytes)
  if (outcome.kind === 'value') return outcome.value
  if (outcome.kind === 'bounds') throw invalidFromIssues('Invalid request body', [outcome.issue])
  throw new ServiceError('InvalidPayload', `The request body is not valid JSON: ${outcome.reason}`)
}

async function parseOffThreadOrRefuse(bytes: Buffer): Promise<JsonParseOutcome> {
  try {
    return await parseJsonOffThread(bytes)
  } catch (error) {
    // The parsing thread died on this body (out of memory): the body is at fault, and the server goes on.
    const reason = error instanceof Error ? error.message : String(error)
    throw new ServiceError('PayloadTooLarge', `The request body is too large to parse (${reason}); send it in smaller requests`)
  }
}

/**
 * The JSON limit for an operation path: 40 MB under `/v1/tables`, 1 MB elsewhere (Files API).
 *
 * @example
 * ```ts
 * jsonLimitFor('/v1/tables/{table}/rows') // 41943040
 * ```
 */
export function jsonLimitFor(path: string): number {
  return path === '/v1/tables' || path.startsWith('/v1/tables/') ? TABLES_JSON_LIMIT : FILES_JSON_LIMIT
}
