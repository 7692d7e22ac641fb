import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AbortError, ResourceNotFoundError, UploadFileError, type Client } from '../../src/client/index.js'
import { startClientService, type ClientTestService } from './service.js'

const CHUNK = 64 * 1024

/** A deterministic byte pattern: chunk `i` is filled with `i % 251`. */
function chunkAt(index: number): Uint8Array {
  return new Uint8Array(CHUNK).fill(index % 251)
}

function expectedDigest(chunks: number): string {
  const hash = createHash('sha256')
  for (let i = 0; i < chunks; i++) hash.update(chunkAt(i))
  return hash.digest('hex')
}

/** A Node Readable of `chunks` chunks that records how many it has produced. */
function countingReadable(chunks: number): { stream: Readable; produced: () => number } {
  let produced = 0
  const stream = Readable.from(
    (async function* () {
      for (let i = 0; i < chunks; i++) {
        produced++
        yield Buffer.from(chunkAt(i))
      }
    })(),
  )
  return { stream, produced: () => produced }
}

async function digestOf(body: ReadableStream<Uint8Array> | null): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
  return hash.digest('hex')
}

describe('client e2e: uploads and downloads of multi-megabyte content', () => {
  let service: ClientTestService
  let client: Client
  /** For each content PUT: how many source chunks had been produced when its first body chunk arrived. */
  const producedAtFirstChunk: number[] = []
  let currentProduced: (() => number) | undefined
  const uploadHeaders: Headers[] = []

  beforeAll(async () => {
    service = await startClientService()
    client = service.client('bot', {
      fetch: async (request: Request) => {
        if (request.method !== 'PUT' || !request.url.includes('/v1/content/upload/') || request.body === null) {
          return service.app.fetch(request)
        }
        uploadHeaders.push(request.headers)
        // Look at the first body chunk as it reaches the service, then hand the whole body on unchanged.
        const reader = request.body.getReader()
        const first = await reader.read()
        producedAtFirstChunk.push(currentProduced?.() ?? -1)
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            if (!first.done) controller.enqueue(first.value)
          },
          async pull(controller) {
            const next = await reader.read()
            if (next.done) controller.close()
            else controller.enqueue(next.value)
          },
        })
        return service.app.fetch(new Request(request.url, { method: 'PUT', headers: request.headers, body, duplex: 'half' } as RequestInit))
      },
    })
  })
  afterAll(async () => {
    await service.close()
  })

  it('streams an 8 MB Node Readable with a known size without reading it all first', async () => {
    const chunks = 128
    const source = countingReadable(chunks)
    currentProduced = source.produced
    const { file } = await client.uploadFile({ key: 'big/stream.bin', content: source.stream, size: chunks * CHUNK, contentType: 'application/octet-stream' })
    currentProduced = undefined
    expect(file.size).toBe(chunks * CHUNK)
    expect(producedAtFirstChunk.at(-1)).toBeLessThan(16)
    const stored = await client.getFile({ id: 'big/stream.bin' })
    expect(stored.file).toMatchObject({ status: 'upload_completed', size: chunks * CHUNK })
    const { response } = await client.downloadFile({ id: 'big/stream.bin' })
    expect(await digestOf(response.body)).toBe(expectedDigest(chunks))
  })

  it('reads a web ReadableStream without a size into memory first, then uploads it', async () => {
    const chunks = 48
    let index = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index === chunks) controller.close()
        else controller.enqueue(chunkAt(index++))
      },
    })
    const { file } = await client.uploadFile({ key: 'big/web.bin', content: stream })
    expect(file.size).toBe(chunks * CHUNK)
    expect(await digestOf((await client.downloadFile({ id: 'big/web.bin' })).response.body)).toBe(expectedDigest(chunks))
  })

  it('uploads a Blob and bytes', async () => {
    const parts = Array.from({ length: 40 }, (_, i) => chunkAt(i))
    const blob = new Blob(parts as BlobPart[])
    await client.uploadFile({ key: 'big/blob.bin', content: blob })
    expect(await digestOf((await client.downloadFile({ id: 'big/blob.bin' })).response.body)).toBe(expectedDigest(40))
    const bytes = new Uint8Array(await blob.arrayBuffer())
    const { file } = await client.uploadFile({ key: 'big/bytes.bin', content: bytes })
    expect(file.size).toBe(40 * CHUNK)
  })

  it('uploads from a url (here the content URL of another file)', async () => {
    const source = await client.getFile({ id: 'big/blob.bin' })
    const { file } = await client.uploadFile({ key: 'big/from-url.bin', url: source.file.url })
    expect(file.size).toBe(40 * CHUNK)
    expect(await digestOf((await client.downloadFile({ id: 'big/from-url.bin' })).response.body)).toBe(expectedDigest(40))
  })

  it('sends the content type of the file and x-amz-tagging for immediately public content, never the bearer token', async () => {
    uploadHeaders.length = 0
    await client.uploadFile({ key: 'public.txt', content: 'public', accessPolicies: ['public_content'], publicContentImmediatelyAccessible: true })
    const headers = uploadHeaders[0]!
    expect(headers.get('content-type')).toBe('text/plain')
    expect(headers.get('x-amz-tagging')).toBe('public=true')
    expect(headers.get('authorization')).toBeNull()
    expect(headers.get('x-bot-id')).toBeNull()
  })

  it('refuses both or neither of content and url, and a stream shorter than its size', async () => {
    await expect(client.uploadFile({ key: 'x.txt', content: 'a', url: 'http://example.com' })).rejects.toThrow(
      'Cannot provide both content and URL, please provide only one of them',
    )
    await expect(client.uploadFile({ key: 'x.txt' })).rejects.toThrow('No content was provided for the file')
    const error = await client.uploadFile({ key: 'short.bin', content: Readable.from([Buffer.alloc(10)]), size: 20 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UploadFileError)
    expect((error as UploadFileError).message).toBe('Failed to upload file: content: expected 20 bytes (the given size), received 10')
    expect((error as UploadFileError).file?.key).toBe('short.bin')
    expect((await client.getFile({ id: 'short.bin' })).file.status).not.toBe('upload_completed')
  })

  it('uploads empty content as a zero-byte file', async () => {
    const { file } = await client.uploadFile({ key: 'empty.txt', content: '' })
    expect(file.size).toBe(0)
    expect((await client.getFile({ id: 'empty.txt' })).file).toMatchObject({ status: 'upload_completed', size: 0 })
    expect(await (await client.downloadFile({ id: 'empty.txt' })).response.text()).toBe('')
  })

  it('downloadFile of a missing file fails with ResourceNotFoundError; its signal can cancel the body stream', async () => {
    await expect(client.downloadFile({ id: 'nope.bin' })).rejects.toBeInstanceOf(ResourceNotFoundError)
    const controller = new AbortController()
    const { response } = await client.downloadFile({ id: 'big/stream.bin' }, { signal: controller.signal })
    const reader = response.body!.getReader()
    await reader.read()
    controller.abort()
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'finished'
      })(),
    ).rejects.toBeInstanceOf(AbortError)
  })

  it('aborts an upload in flight with AbortError', async () => {
    const controller = new AbortController()
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(chunkAt(0))
        controller.abort()
        return new Promise(() => undefined)
      },
    })
    const error = await client.uploadFile({ key: 'aborted.bin', content: stream, size: 10 * CHUNK }, { signal: controller.signal }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AbortError)
  })
})

describe('client e2e: a streamed upload over a real socket', () => {
  let service: ClientTestService

  beforeAll(async () => {
    service = await startClientService({ listen: true })
  })
  afterAll(async () => {
    await service.close()
  })

  it('sends a 4 MB Node stream through fetch and reads it back', async () => {
    const client = service.client('bot')
    const chunks = 64
    const { file } = await client.uploadFile({ key: 'socket.bin', content: countingReadable(chunks).stream, size: chunks * CHUNK })
    expect(file.size).toBe(chunks * CHUNK)
    const { response } = await client.downloadFile({ id: 'socket.bin' })
    expect(await digestOf(response.body)).toBe(expectedDigest(chunks))
  })
})
