import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { once } from 'node:events'
import { PRIVATE_FILE_MODE } from '../platform/index.js'
import type { ArchivePart } from './archive-format.js'
import { DatasetArchiveError } from './errors.js'

/**
 * Writes one data part as JSON lines, streaming (backpressure honoured), counting records and bytes and hashing
 * them; `close()` returns the part's manifest entry.
 *
 * @example
 * ```ts
 * const writer = new JsonlWriter('/tmp/out/parts/bots.jsonl', 'parts/bots.jsonl')
 * await writer.write({ id: 'b1' })
 * const part = await writer.close() // { path, records: 1, bytes, sha256 }
 * ```
 */
export class JsonlWriter {
  private readonly stream: WriteStream
  private readonly hash = createHash('sha256')
  private records = 0
  private bytes = 0

  constructor(
    file: string,
    private readonly path: string,
  ) {
    // Parts carry token hashes and the signing key: private to their owner (decision 1461).
    this.stream = createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE })
  }

  /** Appends one record. */
  async write(record: unknown): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8')
    this.hash.update(line)
    this.records += 1
    this.bytes += line.length
    if (!this.stream.write(line)) await once(this.stream, 'drain')
  }

  /** Flushes and closes the file; the part's entry for the manifest. */
  async close(): Promise<ArchivePart> {
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())))
    return { path: this.path, records: this.records, bytes: this.bytes, sha256: this.hash.digest('hex') }
  }

  /** Closes without a result (a failed export). */
  destroy(): void {
    this.stream.destroy()
  }
}

/**
 * Reads a data part line by line, streaming, and checks it against its manifest entry once read: the sha256 of
 * its bytes, its size and its record count. A mismatch (or a line that is not JSON) throws `DatasetArchiveError`
 * `ARCHIVE_CORRUPT` naming the part; records are handed out before the end, so callers that write them must be
 * able to undo (`botshelf import` writes inside one transaction, or verifies first with `verifyPart`).
 *
 * @example
 * ```ts
 * for await (const record of readPart('/backup', part)) console.log(record)
 * ```
 */
export async function* readPart(folder: string, part: ArchivePart): AsyncGenerator<unknown> {
  const hash = createHash('sha256')
  let bytes = 0
  let records = 0
  let pending = ''
  const decoder = new TextDecoder('utf-8', { fatal: false })
  const parse = (line: string): unknown => {
    try {
      return JSON.parse(line)
    } catch {
      throw new DatasetArchiveError('ARCHIVE_CORRUPT', `${part.path}: line ${records + 1} is not JSON (the archive is damaged)`)
    }
  }
  let stream
  try {
    stream = createReadStream(`${folder}/${part.path}`)
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk)
      bytes += chunk.length
      pending += decoder.decode(chunk, { stream: true })
      let newline = pending.indexOf('\n')
      while (newline !== -1) {
        const line = pending.slice(0, newline)
        pending = pending.slice(newline + 1)
        if (line !== '') {
          const record = parse(line)
          records += 1
          yield record
        }
        newline = pending.indexOf('\n')
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DatasetArchiveError('ARCHIVE_CORRUPT', `${part.path}: missing from the archive`)
    throw error
  }
  pending += decoder.decode()
  if (pending.trim() !== '') {
    records += 1
    yield parse(pending)
  }
  const sha256 = hash.digest('hex')
  if (sha256 !== part.sha256 || bytes !== part.bytes || records !== part.records) {
    throw new DatasetArchiveError(
      'ARCHIVE_CORRUPT',
      `${part.path}: does not match the manifest (sha256 expected ${part.sha256}, computed ${sha256}; ${part.bytes} bytes and ${part.records} records expected, ${bytes} and ${records} read): the archive is damaged`,
    )
  }
}

/**
 * Reads a whole part to check it (see `readPart`), keeping nothing.
 *
 * @example
 * ```ts
 * await verifyPart('/backup', part) // throws DatasetArchiveError naming the part on a mismatch
 * ```
 */
export async function verifyPart(folder: string, part: ArchivePart): Promise<void> {
  for await (const _record of readPart(folder, part)) {
    // Read to the end: the checksum is checked there.
  }
}
