import { describe, expect, it } from 'vitest'
import { ServiceError } from './service-error.js'
import { readBodyText, readJsonBody } from './body.js'

function requestWithBody(body: ReadableStream<Uint8Array>): Request {
  return new Request('http://local/v1/files', { method: 'PUT', body, duplex: 'half' } as RequestInit)
}

function streamOf(chunks: string[], failAfter?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let index = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]!))
      else if (failAfter) controller.error(failAfter)
      else controller.close()
    },
  })
}

describe('readBodyText', () => {
  it('reads a streamed body whole', async () => {
    expect(await readBodyText(requestWithBody(streamOf(['{"a"', ':1}'])), 100)).toBe('{"a":1}')
  })

  it('refuses a body that grows past the limit while streaming, with 413', async () => {
    const error = await readBodyText(requestWithBody(streamOf(['x'.repeat(60), 'y'.repeat(60)])), 100).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ type: 'PayloadTooLarge', status: 413 })
  })

  it('answers a body that breaks off with 400 InvalidPayload naming the bytes received, not a server error', async () => {
    const error = await readBodyText(requestWithBody(streamOf(['{"key":"a', 'bc"'], new Error('aborted'))), 1000).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ type: 'InvalidPayload', status: 400, metadata: { bytesReceived: 12 } })
    expect((error as Error).message).toMatch(/broke off after 12 bytes \(aborted\)/)
  })

  it('names the parse error of malformed JSON', async () => {
    await expect(readJsonBody(requestWithBody(streamOf(['{"a":'])), 100)).rejects.toMatchObject({
      type: 'InvalidPayload',
      message: expect.stringMatching(/not valid JSON/),
    })
  })
})

describe('readJsonBody bounds', () => {
  it('refuses more than 64 levels of nesting before parsing, naming the path', async () => {
    const deep = `{"metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5001)}`
    await expect(readJsonBody(requestWithBody(streamOf([deep])), 1_000_000)).rejects.toMatchObject({
      type: 'InvalidPayload',
      message: 'Invalid request body: metadata.a.a.a.a.a.a.a…: expected at most 64 levels of nesting, received more than 64',
      metadata: { issues: [{ path: 'metadata.a.a.a.a.a.a.a…', expected: 'at most 64 levels of nesting', received: 'more than 64' }] },
    })
    const fine = `{"metadata":${'{"a":'.repeat(63)}1${'}'.repeat(64)}`
    expect(await readJsonBody(requestWithBody(streamOf([fine])), 1_000_000)).toHaveProperty('metadata.a.a')
  })

  it('refuses a "__proto__" key and keeps other prototype names as ordinary keys', async () => {
    await expect(readJsonBody(requestWithBody(streamOf(['{"tags":{"__proto__":"x"}}'])), 100)).rejects.toMatchObject({
      type: 'InvalidPayload',
      message: 'Invalid request body: tags.__proto__: expected a key other than "__proto__", received "__proto__"',
    })
    expect(await readJsonBody(requestWithBody(streamOf(['{"constructor":{"toString":1}}'])), 100)).toEqual({ constructor: { toString: 1 } })
  })
})
