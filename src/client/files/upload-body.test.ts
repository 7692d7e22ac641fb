import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { UploadFileError } from '../errors/client-errors.js'
import { prepareUploadBody } from './upload-body.js'

async function bytesOf(body: Uint8Array | Blob | ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body as BodyInit).arrayBuffer())
}

function webStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk)
      controller.close()
    },
  })
}

describe('prepareUploadBody', () => {
  it('encodes text as UTF-8 and counts bytes, not characters', async () => {
    const prepared = await prepareUploadBody('héllo 🚀')
    expect(prepared.size).toBe(11)
    expect(new TextDecoder().decode(await bytesOf(prepared.body))).toBe('héllo 🚀')
    expect(prepared.replayable).toBe(true)
  })

  it('uses bytes, Node Buffers, ArrayBuffers and Blobs as they are', async () => {
    expect((await prepareUploadBody(new Uint8Array([1, 2, 3]))).size).toBe(3)
    expect((await prepareUploadBody(Buffer.from('abcd'))).size).toBe(4)
    expect((await prepareUploadBody(new ArrayBuffer(5))).size).toBe(5)
    const blob = new Blob(['xyz'])
    const prepared = await prepareUploadBody(blob)
    expect(prepared.size).toBe(3)
    expect(prepared.body).toBe(blob)
  })

  it('streams a web stream untouched when its size is given', async () => {
    const prepared = await prepareUploadBody(webStream([new Uint8Array([1, 2]), new Uint8Array([3])]), 3)
    expect(prepared.size).toBe(3)
    expect(prepared.body).toBeInstanceOf(ReadableStream)
    expect(prepared.replayable).toBe(false)
    expect([...(await bytesOf(prepared.body))]).toEqual([1, 2, 3])
  })

  it('streams a Node Readable lazily when its size is given', async () => {
    let pulled = 0
    const source = Readable.from(
      (async function* () {
        for (let i = 0; i < 4; i++) {
          pulled++
          yield Buffer.from('ab')
        }
      })(),
    )
    const prepared = await prepareUploadBody(source, 8)
    expect(pulled).toBeLessThan(4)
    expect(new TextDecoder().decode(await bytesOf(prepared.body))).toBe('abababab')
    expect(pulled).toBe(4)
  })

  it('reads a stream into memory when no size is given, to learn it', async () => {
    const prepared = await prepareUploadBody(Readable.from(['ab', 'cde']))
    expect(prepared.size).toBe(5)
    expect(prepared.replayable).toBe(true)
  })

  it('fails the stream when it carries more or fewer bytes than the given size', async () => {
    const longer = await prepareUploadBody(webStream([new Uint8Array(4)]), 3)
    await expect(bytesOf(longer.body)).rejects.toThrow()
    const shorter = await prepareUploadBody(webStream([new Uint8Array(2)]), 3)
    await expect(bytesOf(shorter.body)).rejects.toThrow()
  })

  it('refuses a size that contradicts bytes whose length is known', async () => {
    await expect(prepareUploadBody('abc', 4)).rejects.toThrow('size: expected 3 (the byte length of the content), received 4')
  })

  it('refuses unsupported content and bad sizes with UploadFileError', async () => {
    await expect(prepareUploadBody(42 as never)).rejects.toBeInstanceOf(UploadFileError)
    await expect(prepareUploadBody(42 as never)).rejects.toThrow('content: expected a string, bytes, a Blob, a ReadableStream or an async iterable, received number')
    await expect(prepareUploadBody(webStream([]), -1)).rejects.toThrow('size: expected a whole number of bytes >= 0, received -1')
  })
})
