import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import type { Client } from 'botshelf/client'

/**
 * Downloads a file's content to `destination`: into a temporary file beside it, renamed over the destination
 * only once every byte arrived, so an interrupted or failed download never leaves a partial file under the
 * destination's name (the temporary file is removed). `onBytes` sees each chunk as it is written.
 *
 * @example
 * ```ts
 * await downloadToFile(client, 'docs/a.md', './out/a.md', signal, (n) => progress.advance(n))
 * ```
 */
export async function downloadToFile(client: Client, key: string, destination: string, signal: AbortSignal, onBytes: (bytes: number) => void): Promise<number> {
  await mkdir(dirname(destination), { recursive: true })
  const temporary = join(dirname(destination), `.${basename(destination)}.${randomBytes(6).toString('hex')}.part`)
  let written = 0
  try {
    const { response } = await client.downloadFile({ id: key }, { signal })
    if (!response.body) throw new Error(`the service sent no content for ${key}`)
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.byteLength
        onBytes(chunk.byteLength)
        callback(null, chunk)
      },
    })
    await pipeline(Readable.fromWeb(response.body as unknown as NodeWebReadableStream<Uint8Array>), counter, createWriteStream(temporary, { flags: 'wx' }), { signal })
    await rename(temporary, destination)
    return written
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
