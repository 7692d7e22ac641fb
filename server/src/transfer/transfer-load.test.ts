/**
 * The codecs under load: memory stays bounded on a ~100 MB stream (generated lazily, never held whole), and the
 * event loop keeps turning while one huge chunk is decoded or a large export encoded. The measured numbers are
 * printed for the record. The sizes are what the bounds need, no more (decision 1456): the rows of 100 MB decoded
 * and kept would take several hundred MB, against a retained growth bound of 16 MB (measured: 1 to 4 MB). The loop's
 * turns are counted, not timed: the codecs pace themselves to give the loop a turn at least every 1 MB of content
 * (`EventLoopPacer`), so the rows handled between two turns are bounded whatever the machine's load; the longest
 * wall-clock gap is printed for the record only (a loaded machine stretches it; timings belong in bench/).
 */
import { Buffer } from 'node:buffer'
import { Readable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createGzip, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeImport } from './decode-import.js'
import { encodeExport } from './encode-export.js'
import type { TransferColumn } from './transfer-column.js'

setFlagsFromString('--expose-gc')
/** V8's collector, to measure what is retained rather than garbage not yet collected. */
const collectGarbage = runInNewContext('gc') as () => void

const MB = 1024 * 1024
/** Most growth of retained memory (heap and buffers) while decoding ~100 MB: what a decoder that kept rows would pass. */
const RETAINED_BOUND = 16 * MB
/** Most growth of the resident set meanwhile (the allocator keeps freed pages: up to 33 MB measured). */
const RSS_BOUND = 64 * MB
/**
 * Most content between two turns of the event loop, as a share of what one run handles: the pacer yields after
 * 1 MB (or 10 ms, whichever first), plus the slice or chunk that passed the budget; 2 MB leaves room for both.
 */
const CONTENT_BETWEEN_TURNS = 2 * MB

const columns: TransferColumn[] = [
  { name: 'name', kind: 'string' },
  { name: 'score', kind: 'number' },
  { name: 'ok', kind: 'boolean' },
  { name: 'meta', kind: 'object' },
]

/** About `total` bytes of a table export, in 64 KiB chunks built on demand, each row different. */
async function* generated(format: 'csv' | 'json', total: number): AsyncGenerator<Buffer> {
  yield Buffer.from(
    format === 'csv'
      ? 'id,createdAt,updatedAt,name,score,ok,meta\r\n'
      : `{"table":"loadTable","schema":{"description":"${'s'.repeat(2 * MB)}"},"rows":[`,
  )
  let made = 0
  let id = 0
  while (made < total) {
    const rows: string[] = []
    let length = 0
    while (length < 64 * 1024) {
      id++
      const row =
        format === 'csv'
          ? `${id},2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,"Name ${id}, ""q"" é",${id / 7},${id % 2 === 0},"{""k"":${id}}"\r\n`
          : `${id === 1 ? '' : ','}{"id":${id},"createdAt":"2026-01-01T00:00:00.000Z","name":"Name ${id}, \\"q\\" é","score":${id / 7},"ok":${id % 2 === 0},"meta":{"k":${id}}}`
      rows.push(row)
      length += row.length
    }
    const chunk = Buffer.from(rows.join(''))
    made += chunk.length
    yield chunk
  }
  if (format === 'json') yield Buffer.from(']}')
}

/** The generated text gzipped on the fly (level 1, to keep the test fast). */
async function* gzipped(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of Readable.from(chunks).pipe(createGzip({ level: 1 }))) yield chunk as Buffer
}

/** Counts the bytes flowing through. */
function counted(chunks: AsyncIterable<Buffer>, count: { bytes: number }): AsyncGenerator<Buffer> {
  return (async function* () {
    for await (const chunk of chunks) {
      count.bytes += chunk.length
      yield chunk
    }
  })()
}

/**
 * Counts the event loop's turns (a `setImmediate` that schedules itself: it runs once per turn, never while the code
 * under test holds the loop), counts the rows handled since the last turn (`handled`), keeps the most of them, and
 * remembers the longest wall-clock gap between turns (printed, not asserted).
 */
function startTurnCounter(): { handled(rows: number): void; stop(): { turns: number; mostRowsBetweenTurns: number; longestGapMs: number } } {
  let turns = 0
  let seen = 0
  let since = 0
  let most = 0
  let last = performance.now()
  let longest = 0
  let running = true
  const turn = () => {
    if (!running) return
    turns += 1
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
    setImmediate(turn)
  }
  setImmediate(turn)
  return {
    handled(rows) {
      if (turns !== seen) {
        seen = turns
        since = 0
      }
      since += rows
      most = Math.max(most, since)
    },
    stop() {
      running = false
      return { turns, mostRowsBetweenTurns: most, longestGapMs: Math.max(longest, performance.now() - last) }
    },
  }
}

interface DecodeMeasure {
  rows: number
  retainedGrowth: number
  rssGrowth: number
  seconds: number
}

/** Decodes, collecting garbage every 100 batches to sample what is retained (heap + buffers) and the resident set. */
async function measureDecode(source: AsyncIterable<Uint8Array>): Promise<DecodeMeasure> {
  collectGarbage()
  const base = process.memoryUsage()
  let retainedGrowth = 0
  let rssGrowth = 0
  let rows = 0
  let batches = 0
  const started = performance.now()
  for await (const batch of decodeImport(source, { columns })) {
    rows += batch.length
    if (++batches % 100 !== 0) continue
    collectGarbage()
    const now = process.memoryUsage()
    retainedGrowth = Math.max(retainedGrowth, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers)
    rssGrowth = Math.max(rssGrowth, now.rss - base.rss)
  }
  return { rows, retainedGrowth, rssGrowth, seconds: (performance.now() - started) / 1000 }
}

function report(label: string, bytes: number, measure: DecodeMeasure): void {
  console.log(
    `${label}: ${(bytes / MB).toFixed(0)} MB, ${measure.rows} rows in ${measure.seconds.toFixed(2)} s ` +
      `(${(bytes / MB / measure.seconds).toFixed(1)} MB/s incl. generation), retained growth ${(measure.retainedGrowth / MB).toFixed(1)} MB, ` +
      `rss growth ${(measure.rssGrowth / MB).toFixed(1)} MB`,
  )
}

// The decodes assert memory, not time: how long 100 MB takes is the machine's (5 s alone, 15 s or more beside another
// busy test file on 2 cores), so they get a time budget of their own.
const DECODE_TIMEOUT_MS = 180_000

describe('transfer codecs under load', () => {
  it('decode a ~100 MB CSV stream in bounded memory', async () => {
    const count = { bytes: 0 }
    const measure = await measureDecode(counted(generated('csv', 100 * MB), count))
    report('CSV', count.bytes, measure)
    expect(count.bytes).toBeGreaterThan(100 * MB)
    expect(measure.rows).toBeGreaterThan(750_000)
    expect(measure.retainedGrowth).toBeLessThan(RETAINED_BOUND)
    expect(measure.rssGrowth).toBeLessThan(RSS_BOUND)
  }, DECODE_TIMEOUT_MS)

  it('decode a ~100 MB JSON stream, rows after a 2 MB schema, in bounded memory', async () => {
    const count = { bytes: 0 }
    const measure = await measureDecode(counted(generated('json', 100 * MB), count))
    report('JSON', count.bytes, measure)
    expect(measure.rows).toBeGreaterThan(600_000)
    expect(measure.retainedGrowth).toBeLessThan(RETAINED_BOUND)
    expect(measure.rssGrowth).toBeLessThan(RSS_BOUND)
  }, DECODE_TIMEOUT_MS)

  it('decode a gzipped ~40 MB CSV stream in bounded memory', async () => {
    const count = { bytes: 0 }
    const measure = await measureDecode(gzipped(counted(generated('csv', 40 * MB), count)))
    report('CSV gzip', count.bytes, measure)
    expect(measure.rows).toBeGreaterThan(300_000)
    expect(measure.retainedGrowth).toBeLessThan(RETAINED_BOUND)
    expect(measure.rssGrowth).toBeLessThan(RSS_BOUND)
  }, DECODE_TIMEOUT_MS)

  it('keep the event loop turning while decoding one huge chunk, plain or gzipped', async () => {
    for (const [format, compress] of [['csv', false], ['json', false], ['csv', true]] as const) {
      const parts: Buffer[] = []
      for await (const chunk of generated(format, 24 * MB)) parts.push(chunk)
      const text = Buffer.concat(parts)
      const input = compress ? gzipSync(text, { level: 1 }) : text
      const counter = startTurnCounter()
      const started = performance.now()
      let rows = 0
      async function* oneChunk() {
        yield input
      }
      for await (const batch of decodeImport(oneChunk(), { columns, batchRows: 500 })) {
        rows += batch.length
        counter.handled(batch.length)
      }
      const seconds = (performance.now() - started) / 1000
      const { turns, mostRowsBetweenTurns, longestGapMs } = counter.stop()
      console.log(
        `one ${(text.length / MB).toFixed(0)} MB ${format}${compress ? ' gzip' : ''} chunk: ${rows} rows in ${seconds.toFixed(2)} s (${(text.length / MB / seconds).toFixed(1)} MB/s), ${turns} loop turns, at most ${mostRowsBetweenTurns} rows between two, longest gap ${longestGapMs.toFixed(1)} ms`,
      )
      expect(rows).toBeGreaterThan(150_000)
      // One chunk of 24 MB: without pacing the loop would not turn until the end (every row between two turns).
      expect(mostRowsBetweenTurns).toBeLessThanOrEqual(Math.ceil((rows * CONTENT_BETWEEN_TURNS) / text.length))
    }
  })

  it('keep the event loop turning while encoding a large export from rows already in memory', async () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => ({ id: i + 1, createdAt: 'c', updatedAt: 'u', name: `Name ${i}, "q"`, score: i / 7, ok: i % 2 === 0, meta: { k: i } }))
    for (const format of ['csv', 'json'] as const) {
      // The plain run of a format measures its text; the gzipped run's rows between turns are bounded by that text.
      let textBytes = 0
      for (const compress of [false, true]) {
        const counter = startTurnCounter()
        async function* fromMemory() {
          for (const row of rows) {
            counter.handled(1)
            yield row
          }
        }
        const started = performance.now()
        let bytes = 0
        for await (const chunk of encodeExport(fromMemory(), { format, compress, columns, tableName: 'loadTable', schema: {} })) bytes += chunk.length
        const seconds = (performance.now() - started) / 1000
        const { turns, mostRowsBetweenTurns, longestGapMs } = counter.stop()
        if (!compress) textBytes = bytes
        console.log(
          `export ${format}${compress ? ' gzip' : ''}: ${(bytes / MB).toFixed(1)} MB in ${seconds.toFixed(2)} s, ${turns} loop turns, at most ${mostRowsBetweenTurns} rows between two, longest gap ${longestGapMs.toFixed(1)} ms`,
        )
        expect(bytes).toBeGreaterThan(compress ? 1 * MB : 8 * MB)
        // 150,000 rows from memory: without pacing the encoder would pull them all in one turn.
        expect(mostRowsBetweenTurns).toBeLessThanOrEqual(Math.ceil((rows.length * CONTENT_BETWEEN_TURNS) / textBytes))
      }
    }
  })
})
