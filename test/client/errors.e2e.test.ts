import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AbortError,
  AlreadyExistsError,
  ApiError,
  BreakingChangesError,
  Client,
  ForbiddenError,
  InvalidDataFormatError,
  InvalidJsonSchemaError,
  InvalidPayloadError,
  InvalidQueryError,
  isApiError,
  LimitExceededError,
  MethodNotFoundError,
  NetworkError,
  PayloadTooLargeError,
  ResourceGoneError,
  ResourceNotFoundError,
  TimeoutError,
  UnauthorizedError,
  UploadFileError,
} from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'
import { failure } from '../helpers/failure.js'

const errorIdPattern = /^err_\d{14}x[0-9A-F]{8}$/

/** Checks an API error as the server sent it: class, wire fields, a server-made id. */
function expectApiError(error: unknown, ErrorClass: new (...args: never[]) => ApiError, code: number, message: RegExp | string) {
  expect(error).toBeInstanceOf(ErrorClass)
  expect(isApiError(error)).toBe(true)
  const apiError = error as ApiError
  expect(apiError.code).toBe(code)
  expect(apiError.id).toMatch(errorIdPattern)
  if (typeof message === 'string') expect(apiError.message).toContain(message)
  else expect(apiError.message).toMatch(message)
  expect(apiError.description.length).toBeGreaterThan(0)
}

describe('client e2e: every error type the service produces arrives as its class', () => {
  let service: ClientTestService
  let client: Client

  beforeAll(async () => {
    service = await startClientService()
    client = service.client('bot')
    await client.uploadFile({ key: 'exists.txt', content: 'here' })
    await client.createTable({ name: 'errorsTable', schema: { n: 0, label: '' } })
  })
  afterAll(async () => {
    await service.close()
  })

  it('Unauthorized: no token, or an unknown token', async () => {
    vi.stubEnv('BP_TOKEN', '')
    try {
      const anonymous = service.client('bot', { token: undefined })
      expectApiError(await failure(() => anonymous.listFiles({})), UnauthorizedError, 401, 'Missing bearer token')
    } finally {
      vi.unstubAllEnvs()
    }
    const stranger = service.client('bot', { token: 'bp_pat_not_a_real_token' })
    expectApiError(await failure(() => stranger.listFiles({})), UnauthorizedError, 401, 'Unknown or revoked token')
  })

  it('InvalidPayload: a missing x-bot-id, or input that breaks the schema (naming the field)', async () => {
    vi.stubEnv('BP_BOT_ID', '')
    try {
      const noBot = service.client('bot', { botId: '' })
      expectApiError(await failure(() => noBot.listFiles({})), InvalidPayloadError, 400, 'x-bot-id')
    } finally {
      vi.unstubAllEnvs()
    }
    const error = await failure(() => client.upsertFile({ key: 'a.txt', size: -1 }))
    expectApiError(error, InvalidPayloadError, 400, /size/)
  })

  it('Forbidden: a viewer writing, a billing manager reading', async () => {
    expectApiError(await failure(() => service.client('viewer').uploadFile({ key: 'v.txt', content: 'x' })), ForbiddenError, 403, /./)
    expectApiError(await failure(() => service.client('billing_manager').listFiles({})), ForbiddenError, 403, /./)
  })

  it('ResourceNotFound: a missing file, table or row', async () => {
    expectApiError(await failure(() => client.getFile({ id: 'missing.txt' })), ResourceNotFoundError, 404, /missing\.txt/)
    expectApiError(await failure(() => client.getTable({ table: 'missingTable' })), ResourceNotFoundError, 404, /missingTable/)
    expectApiError(await failure(() => client.getTableRow({ table: 'errorsTable', id: 999 })), ResourceNotFoundError, 404, /999/)
  })

  it('AlreadyExists: copying onto an existing key, creating a table twice', async () => {
    const error = await failure(() => client.copyFile({ idOrKey: 'exists.txt', destinationKey: 'exists.txt' }))
    expectApiError(error, AlreadyExistsError, 409, 'overwrite')
    expect((error as AlreadyExistsError).metadata).toMatchObject({ id: expect.any(String) })
    expectApiError(await failure(() => client.createTable({ name: 'errorsTable', schema: { n: 0 } })), AlreadyExistsError, 409, /errorsTable/)
  })

  it('MethodNotFound: a method the path does not allow (a proxy rewrote GET into PATCH)', async () => {
    const rewritten = service.client('bot', { fetch: (request: Request) => service.app.fetch(new Request(request, { method: 'PATCH' })) })
    expectApiError(await failure(() => rewritten.listFiles({})), MethodNotFoundError, 405, 'PATCH')
  })

  it('InvalidQuery: an altered nextToken, an unknown filter operator', async () => {
    expectApiError(await failure(() => client.listFiles({ nextToken: 'not-a-token' })), InvalidQueryError, 400, 'nextToken')
    expectApiError(
      await failure(() => client.findTableRows({ table: 'errorsTable', filter: { n: { $near: 1 } } as never })),
      InvalidQueryError,
      400,
      '$near',
    )
  })

  it('PayloadTooLarge: a JSON body over the Files API limit of 1 MB (metadata carries the limit)', async () => {
    const error = await failure(() => client.updateFileMetadata({ id: 'exists.txt', metadata: { blob: 'x'.repeat(1_100_000) } }))
    expectApiError(error, PayloadTooLargeError, 413, 'limit')
    expect((error as PayloadTooLargeError).metadata).toEqual({ limit: 1_048_576 })
  })

  it('PayloadTooLarge inside uploadFile: more bytes than the size upsertFile declared', async () => {
    const tooLong = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10))
        controller.close()
      },
    })
    // The client stops the stream itself once it passes the declared size.
    const error = await failure(() => client.uploadFile({ key: 'long.bin', content: tooLong, size: 4 }))
    expect(error).toBeInstanceOf(UploadFileError)
    expect((error as UploadFileError).message).toContain('expected 4 bytes (the given size), received more')
    expect((error as UploadFileError).file?.key).toBe('long.bin')
  })

  it('ResourceGone: an upload superseded by a later upsertFile of the same key', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slow = new ReadableStream<Uint8Array>({
      async pull(controller) {
        controller.enqueue(new Uint8Array([1, 2]))
        await gate
        controller.enqueue(new Uint8Array([3, 4]))
        controller.close()
      },
    })
    const pending = failure(() => client.uploadFile({ key: 'raced.bin', content: slow, size: 4 }))
    await vi.waitFor(async () => expect((await client.getFile({ id: 'raced.bin' })).file.status).toBe('upload_pending'))
    await client.upsertFile({ key: 'raced.bin', size: 1 })
    release()
    const error = await pending
    expect(error).toBeInstanceOf(UploadFileError)
    expectApiError((error as UploadFileError).innerError, ResourceGoneError, 410, 'later upsertFile')
  })

  it('InvalidDataFormat, InvalidJsonSchema, LimitExceeded and BreakingChanges from the tables store', async () => {
    const badRow = await failure(() => client.createTableRows({ table: 'errorsTable', rows: [{ n: 'NaN' }] }))
    expectApiError(badRow, InvalidDataFormatError, 400, /n/)
    expect((badRow as InvalidDataFormatError).metadata).toMatchObject({ issues: [expect.objectContaining({ column: 'n', row: 0 })] })

    expectApiError(
      await failure(() => client.createTable({ name: 'badSchemaTable', schema: { createdAt: '' } })),
      InvalidJsonSchemaError,
      400,
      'reserved',
    )

    const wide = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, '']))
    expectApiError(await failure(() => client.createTable({ name: 'wideTable', schema: wide })), LimitExceededError, 413, '20 columns')

    await client.createTableRows({ table: 'errorsTable', rows: [{ n: 1, label: 'b' }] })
    expectApiError(
      await failure(() => client.updateTable({ table: 'errorsTable', schema: { properties: { label: { type: 'string', enum: ['a'] } } } as never })),
      BreakingChangesError,
      400,
      'enum',
    )
  })
})

describe('client e2e: failures without an answer are client errors, not API errors', () => {
  let service: ClientTestService

  beforeAll(async () => {
    service = await startClientService()
  })
  afterAll(async () => {
    await service.close()
  })

  it('NetworkError when nothing listens at apiUrl', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address() as { port: number }
        probe.close(() => resolve(address.port))
      })
    })
    const client = new Client({ apiUrl: `http://127.0.0.1:${port}`, token: 't', botId: 'b' })
    const error = await failure(() => client.listFiles({}))
    expect(error).toBeInstanceOf(NetworkError)
    expect(isApiError(error)).toBe(false)
    expect((error as NetworkError).code).toBe('ERR_NETWORK')
  })

  it('TimeoutError when the answer is slower than the timeout', async () => {
    // A real delay on purpose: the client's timeout is a real timer racing it (timers fire in the order they fall
    // due, so 60 ms against 30 ms is decided whatever the load); the same network then answers a patient call.
    const slowNetwork = async (request: Request) => {
      await new Promise((resolve) => setTimeout(resolve, 60))
      return service.app.fetch(request)
    }
    const client = service.client('bot', { fetch: slowNetwork, timeout: 30 })
    const error = await failure(() => client.listFiles({}))
    expect(error).toBeInstanceOf(TimeoutError)
    expect((error as TimeoutError).code).toBe('ERR_TIMEOUT')
    expect(await service.client('bot', { fetch: slowNetwork }).listFiles({}, { timeout: 5_000 })).toMatchObject({ files: [] })
  })

  it('AbortError when the caller aborts', async () => {
    const client = service.client('bot')
    const error = await failure(() => client.getFile({ id: 'x' }, { signal: AbortSignal.abort() }))
    expect(error).toBeInstanceOf(AbortError)
    expect((error as AbortError).code).toBe('ERR_ABORTED')
  })

  it('retries an idempotent call through a flaky network when retries are on, and not otherwise', async () => {
    let failuresLeft = 0
    const flaky = async (request: Request) => {
      if (failuresLeft > 0) {
        failuresLeft--
        return new Response(JSON.stringify({ id: 'err_20261122000000x00000000', code: 503, type: 'Internal', message: 'upstream down' }), {
          status: 503,
          headers: { 'retry-after': '0' },
        })
      }
      return service.app.fetch(request)
    }
    failuresLeft = 2
    const retrying = service.client('bot', { fetch: flaky, retry: { retries: 2, minDelayMs: 1 } })
    expect(await retrying.listFiles({})).toMatchObject({ files: [], meta: {} })
    failuresLeft = 1
    const plain = service.client('bot', { fetch: flaky })
    expect((await failure(() => plain.listFiles({}))) as ApiError).toMatchObject({ type: 'Internal', message: 'upstream down' })
  })
})
