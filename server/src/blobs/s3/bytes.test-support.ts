/**
 * A one-chunk source for `BlobStore.write` in tests.
 *
 * @example
 * ```ts
 * await blobs.write(bytesOf('hello'), { expectedBytes: 5 })
 * ```
 */
export async function* bytesOf(content: string | Uint8Array): AsyncIterable<Uint8Array> {
  yield typeof content === 'string' ? Buffer.from(content) : content
}
