import { describe, expect, it } from 'vitest'
import type { BlobFileHandle } from './local-folder-store.js'
import { OverlappedWriter } from './overlapped-writer.js'

/** An in-memory file whose writes finish when the test says so, and which may write short or fail. */
function controlledFile(options: { writev?: boolean; shortBy?: number; failOnCall?: number } = {}) {
  const bytes: number[] = []
  const calls: string[] = []
  const pending: Array<() => void> = []
  let call = 0
  const later = <T>(work: () => T): Promise<T> =>
    new Promise((resolve, reject) => {
      pending.push(() => {
        try {
          resolve(work())
        } catch (error) {
          reject(error)
        }
      })
    })
  const take = (buffers: Uint8Array[], limit: number): number => {
    let written = 0
    for (const buffer of buffers) {
      for (const byte of buffer) {
        if (written >= limit) return written
        bytes.push(byte)
        written++
      }
    }
    return written
  }
  const handle: BlobFileHandle = {
    write(buffer, offset, length) {
      call++
      const thisCall = call
      calls.push(`write ${length}`)
      return later(() => {
        if (thisCall === options.failOnCall) throw new Error('EIO: disk failed')
        const limit = options.shortBy ? Math.max(1, length - options.shortBy) : length
        return { bytesWritten: take([buffer.subarray(offset, offset + length)], limit) }
      })
    },
    read: () => Promise.reject(new Error('not used')),
    sync: () => Promise.resolve(),
    stat: () => Promise.resolve({ size: bytes.length }),
    close: () => Promise.resolve(),
    ...(options.writev
      ? {
          writev(buffers: Uint8Array[]) {
            call++
            const thisCall = call
            const total = buffers.reduce((sum, b) => sum + b.byteLength, 0)
            calls.push(`writev ${buffers.length}x ${total}`)
            return later(() => {
              if (thisCall === options.failOnCall) throw new Error('EIO: disk failed')
              return { bytesWritten: take(buffers, options.shortBy ? Math.max(1, total - options.shortBy) : total) }
            })
          },
        }
      : {}),
  }
  /** Finishes every write started so far, then lets the writer start the next ones. */
  const flush = async (): Promise<void> => {
    for (let round = 0; round < 50 && pending.length > 0; round++) {
      pending.splice(0).forEach((finish) => finish())
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return { handle, bytes, calls, flush }
}

const bytesOf = (...values: number[]): Uint8Array => Uint8Array.from(values)

describe('OverlappedWriter', () => {
  it('does not wait for a write before taking the next chunk, then sends the queued chunks in one vectored write, in order', async () => {
    const file = controlledFile({ writev: true })
    const writer = new OverlappedWriter(file.handle)
    expect(writer.push(bytesOf(1, 2))).toBeUndefined()
    expect(writer.push(bytesOf(3))).toBeUndefined()
    expect(writer.push(bytesOf(4, 5, 6))).toBeUndefined()
    const drained = writer.drain()
    await file.flush()
    await drained
    expect(file.calls).toEqual(['write 2', 'writev 2x 4'])
    expect(file.bytes).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('given the opening of its file, queues chunks until it is open, then writes them in order', async () => {
    const file = controlledFile({ writev: true })
    let open!: (handle: BlobFileHandle) => void
    const writer = new OverlappedWriter(new Promise<BlobFileHandle>((resolve) => (open = resolve)))
    writer.push(bytesOf(1, 2))
    writer.push(bytesOf(3))
    await new Promise((resolve) => setImmediate(resolve))
    expect(file.calls).toEqual([])
    open(file.handle)
    writer.push(bytesOf(4))
    const drained = writer.drain()
    // The writer learns of the open file a tick later.
    await new Promise((resolve) => setImmediate(resolve))
    await file.flush()
    await drained
    expect(file.calls).toEqual(['writev 3x 4'])
    expect(file.bytes).toEqual([1, 2, 3, 4])
  })

  it('a failed opening is its first failure: drain and later pushes throw it', async () => {
    const refused = new Error('EACCES: permission denied, open')
    const opening = Promise.reject(refused)
    const writer = new OverlappedWriter(opening)
    writer.push(bytesOf(1))
    await expect(writer.drain()).rejects.toBe(refused)
    expect(() => writer.push(bytesOf(2))).toThrow(refused)
    await writer.settle()
  })

  it('without writev, writes the queued chunks one by one, in order', async () => {
    const file = controlledFile()
    const writer = new OverlappedWriter(file.handle)
    writer.push(bytesOf(1))
    writer.push(bytesOf(2))
    writer.push(bytesOf(3))
    const drained = writer.drain()
    await file.flush()
    await drained
    expect(file.calls).toEqual(['write 1', 'write 1', 'write 1'])
    expect(file.bytes).toEqual([1, 2, 3])
  })

  it('finishes short writes (single and vectored) from where they stopped', async () => {
    for (const writev of [false, true]) {
      const file = controlledFile({ writev, shortBy: 2 })
      const writer = new OverlappedWriter(file.handle)
      writer.push(bytesOf(1, 2, 3, 4, 5))
      writer.push(bytesOf(6, 7, 8))
      writer.push(bytesOf(9, 10, 11, 12))
      const drained = writer.drain()
      await file.flush()
      await drained
      expect(file.bytes).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    }
  })

  it('asks the producer to wait once more than the backlog is unwritten, and not before', async () => {
    const file = controlledFile({ writev: true })
    const writer = new OverlappedWriter(file.handle, 4)
    expect(writer.push(bytesOf(1, 2))).toBeUndefined()
    expect(writer.push(bytesOf(3, 4))).toBeUndefined()
    const backlog = writer.push(bytesOf(5))
    expect(backlog).toBeInstanceOf(Promise)
    let waited = false
    void backlog!.then(() => (waited = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(waited).toBe(false)
    await file.flush()
    await backlog
    expect(file.bytes).toEqual([1, 2, 3, 4, 5])
  })

  it('keeps the first failure: drain and later pushes throw it, and nothing queued is written after it', async () => {
    const file = controlledFile({ writev: true, failOnCall: 1 })
    const writer = new OverlappedWriter(file.handle)
    writer.push(bytesOf(1))
    writer.push(bytesOf(2))
    const drained = writer.drain().catch((error: unknown) => error)
    await file.flush()
    expect(String(await drained)).toContain('EIO')
    expect(() => writer.push(bytesOf(3))).toThrow('EIO')
    expect(file.calls).toEqual(['write 1'])
    expect(file.bytes).toEqual([])
  })

  it('settle waits for the write in flight and swallows its failure', async () => {
    const file = controlledFile({ failOnCall: 1 })
    const writer = new OverlappedWriter(file.handle)
    writer.push(bytesOf(1))
    writer.push(bytesOf(2))
    const settled = writer.settle()
    await file.flush()
    await expect(settled).resolves.toBeUndefined()
    expect(file.calls).toEqual(['write 1'])
  })
})
