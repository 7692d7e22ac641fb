import { describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import { attachNodeBody, UploadAbortedError, uploadBody } from './upload-body.js'

function requestWith(chunks: Uint8Array[], failWith?: Error): { request: Request; cancelled: () => boolean } {
  let index = 0
  let cancelled = false
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++]
      if (chunk) controller.enqueue(chunk)
      else if (failWith) controller.error(failWith)
      else controller.close()
    },
    cancel() {
      cancelled = true
    },
  })
  return { request: new Request('http://x/', { method: 'PUT', body, duplex: 'half' } as RequestInit), cancelled: () => cancelled }
}

describe('uploadBody', () => {
  it('yields every chunk of a body that ends normally', async () => {
    const { request } = requestWith([new Uint8Array([1, 2]), new Uint8Array([3])])
    const seen: number[] = []
    for await (const chunk of uploadBody(request)) seen.push(...chunk)
    expect(seen).toEqual([1, 2, 3])
  })

  it('turns a failing body into UploadAbortedError with the bytes received and the cause', async () => {
    const cause = new Error('aborted')
    const { request } = requestWith([new Uint8Array(5)], cause)
    const failure = await (async () => {
      for await (const _ of uploadBody(request)) void _
    })().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UploadAbortedError)
    expect(failure).toMatchObject({ code: 'UPLOAD_ABORTED', bytesReceived: 5, cause })
  })

  it('lets a consumer error through untouched and cancels the rest of the body', async () => {
    const { request, cancelled } = requestWith([new Uint8Array(5), new Uint8Array(5)])
    const own = new Error('too large')
    const failure = await (async () => {
      for await (const _ of uploadBody(request)) throw own
    })().catch((error: unknown) => error)
    expect(failure).toBe(own)
    expect(cancelled()).toBe(true)
  })

  it('yields nothing for a request without a body', async () => {
    const chunks: Uint8Array[] = []
    for await (const chunk of uploadBody(new Request('http://x/', { method: 'PUT' }))) chunks.push(chunk)
    expect(chunks).toEqual([])
  })
})

describe('uploadBody over the socket stream (attachNodeBody)', () => {
  it('reads the attached node stream, not the Request body, while nothing has read it', async () => {
    const { request } = requestWith([new Uint8Array([9, 9, 9])])
    attachNodeBody(request, Readable.from([Buffer.from([1, 2]), Buffer.from([3])], { objectMode: false }))
    const seen: number[] = []
    for await (const chunk of uploadBody(request)) seen.push(...chunk)
    expect(seen).toEqual([1, 2, 3])
  })

  it('falls back to the Request body when the stream was already read', async () => {
    const { request } = requestWith([new Uint8Array([7])])
    const incoming = Readable.from([Buffer.from([1])], { objectMode: false })
    incoming.read()
    attachNodeBody(request, incoming)
    const seen: number[] = []
    for await (const chunk of uploadBody(request)) seen.push(...chunk)
    expect(seen).toEqual([7])
  })

  it('turns a failing socket stream into UploadAbortedError with the bytes received', async () => {
    const { request } = requestWith([])
    const incoming = new Readable({ read() {} })
    attachNodeBody(request, incoming)
    incoming.push(Buffer.from([1, 2, 3, 4]))
    setImmediate(() => incoming.destroy(new Error('aborted')))
    const failure = await (async () => {
      for await (const chunk of uploadBody(request)) void chunk
    })().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(UploadAbortedError)
    expect((failure as UploadAbortedError).bytesReceived).toBe(4)
  })

  it('drops the rest of the socket stream when the consumer stops early', async () => {
    const { request } = requestWith([])
    const incoming = Readable.from([Buffer.from([1]), Buffer.from([2]), Buffer.from([3])], { objectMode: false })
    attachNodeBody(request, incoming)
    for await (const chunk of uploadBody(request)) {
      expect([...chunk]).toEqual([1])
      break
    }
    expect(incoming.destroyed).toBe(true)
  })
})
