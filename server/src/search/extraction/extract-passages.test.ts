import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterAll, describe, expect, it } from 'vitest'
import { htmlDocument, markdownDocument, sampleDocuments, textDocument, zipBomb } from '../../../../test/helpers/documents/index.js'
import { closeExtractionWorkers, configureExtractionWorkers, extractPassages } from './extract-passages.js'
import { ExtractionError } from './extraction-error.js'
import { DEFAULT_EXTRACTION_LIMITS } from './limits.js'
import { ExtractionWorkerPool } from './worker/worker-pool.js'

// Through the worker threads: every reader loads there, limits end in ExtractionErrors, crashed or terminated
// threads are replaced, and the caller's thread stays free.
afterAll(() => closeExtractionWorkers())

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ExtractionError)
    return error as ExtractionError
  }
  throw new Error('expected an ExtractionError, but the extraction succeeded')
}

/** An HTML page of `paragraphs` paragraphs: seconds of parsing and a heap of hundreds of MB at 200k. */
const bigHtml = (paragraphs: number) => htmlDocument(`<html><body>${'<p>word and more words here</p>'.repeat(paragraphs)}</body></html>`, 'big.html')
const small = markdownDocument('# Small\n\nA short document.', 'small.md')

describe('extractPassages', () => {
  it('extracts every format of the sample set in a worker thread', async () => {
    for (const sample of await sampleDocuments()) {
      const passages = await extractPassages(sample.document)
      expect(passages.some((p) => p.content.includes(sample.fact)), sample.format).toBe(true)
    }
  })

  it('applies maximumChunkLength', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `Sentence ${i} says something.`).join(' ')
    for (const maximumChunkLength of [100, 350, 5000]) {
      const passages = await extractPassages(textDocument(text), { maximumChunkLength })
      expect(passages.every((p) => p.content.length <= maximumChunkLength)).toBe(true)
      expect(passages.length).toBe(maximumChunkLength === 5000 ? 2 : passages.length)
    }
  })

  it('stops a zip bomb in the worker', async () => {
    const error = await failure(extractPassages(zipBomb('docx', 20 * 1024 * 1024), { limits: { maxInflatedBytes: 4 * 1024 * 1024 } }))
    expect(error.code).toBe('TOO_LARGE')
    expect(error.message).toContain(`${4 * 1024 * 1024} bytes`)
  })

  it('keeps the caller’s event loop responsive while a slow document is extracted', async () => {
    const doc = bigHtml(100_000)
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const passages = await extractPassages(doc)
    delay.disable()
    expect(passages.length).toBeGreaterThan(1000)
    // A behaviour check, not a speed claim: parsing these 3 MB of HTML on this thread blocks it for seconds. The
    // 99th percentile is the bound; the single worst stall is only held under 1 s, because on a busy shared machine
    // the scheduler alone can hold any thread for a few hundred ms.
    expect(delay.percentile(99) / 1e6).toBeLessThan(200)
    expect(delay.max / 1e6).toBeLessThan(1000)
  })

  it('terminates a document over its time limit (TIME_LIMIT) and serves the next one on a fresh thread', async () => {
    const error = await failure(extractPassages(bigHtml(200_000), { limits: { timeMs: 200 } }))
    expect(error.code).toBe('TIME_LIMIT')
    expect(error.message).toContain('200 ms')
    expect((await extractPassages(small))[0]!.content).toBe('Small')
  })

  it('ends a document over its memory limit with MEMORY_LIMIT, and the replaced thread serves the next one', async () => {
    // The same bound is enough for a small document: the failure is the document's, not the thread's start-up.
    expect(await extractPassages(small, { limits: { memoryMb: 48 } })).toHaveLength(2)
    const error = await failure(extractPassages(bigHtml(200_000), { limits: { memoryMb: 48 } }))
    expect(error.code).toBe('MEMORY_LIMIT')
    expect(error.message).toContain('48 MB')
    expect(await extractPassages(small)).toHaveLength(2)
  })

  it('aborts a running extraction through its signal (ABORTED), well before it would end', async () => {
    const controller = new AbortController()
    const running = extractPassages(bigHtml(200_000), { signal: controller.signal })
    // Kept real: the abort must come while the worker thread extracts, which signals nothing when it starts.
    setTimeout(() => controller.abort(), 100)
    expect((await failure(running)).code).toBe('ABORTED')
    expect(await extractPassages(small)).toHaveLength(2)
  })

  it('aborts a queued extraction without disturbing the running one', async () => {
    const first = extractPassages(bigHtml(20_000))
    const controller = new AbortController()
    const queued = extractPassages(small, { signal: controller.signal })
    controller.abort()
    expect((await failure(queued)).code).toBe('ABORTED')
    expect((await first).length).toBeGreaterThan(100)
  })

  it('refuses at once when the signal is already aborted', async () => {
    expect((await failure(extractPassages(small, { signal: AbortSignal.abort() }))).code).toBe('ABORTED')
  })

  it('fails running extractions with ABORTED when the workers are closed, and starts again afterwards', async () => {
    const running = failure(extractPassages(bigHtml(100_000)))
    // Kept real: the extraction runs in a worker thread that tells nothing when it starts; 50 ms lets it start
    // (the document takes far longer than that to extract).
    await new Promise((resolve) => setTimeout(resolve, 50))
    await closeExtractionWorkers()
    const error = await running
    expect(error.code).toBe('ABORTED')
    expect(error.message).toContain('shut down')
    expect(await extractPassages(small)).toHaveLength(2)
  })

  it('refuses bad options and documents it can judge without a worker, naming the field', async () => {
    const cases: Array<[Parameters<typeof extractPassages>[1], string, string]> = [
      [{ maximumChunkLength: 50 }, 'INVALID_OPTIONS', 'maximumChunkLength: expected an integer from 100 to 5000, received 50'],
      [{ maximumChunkLength: 100.5 }, 'INVALID_OPTIONS', 'received 100.5'],
      [{ limits: { timeMs: -1 } }, 'INVALID_OPTIONS', 'limits.timeMs: expected a positive integer, received -1'],
      [{ limits: { pages: 3 } as never }, 'INVALID_OPTIONS', 'limits.pages: expected one of'],
      [{ limits: { maxInputBytes: 5 } }, 'TOO_LARGE', 'small.md is 26 bytes, more than the 5'],
    ]
    for (const [options, code, message] of cases) {
      const error = await failure(extractPassages(small, options))
      expect([error.code, error.message]).toEqual([code, expect.stringContaining(message)])
    }
    expect((await failure(extractPassages({ ...small, content: new Uint8Array() }))).code).toBe('EMPTY_DOCUMENT')
    expect((await failure(extractPassages({ ...small, contentType: 'video/mp4', key: 'film.mp4' }))).code).toBe('UNSUPPORTED_FORMAT')
  })
})

describe('ExtractionWorkerPool', () => {
  it('runs documents one at a time per thread and replaces a thread that was terminated', async () => {
    const pool = new ExtractionWorkerPool({ size: 1 })
    try {
      const request = (key: string) => ({ ...small, key, maximumChunkLength: 1000, limits: { ...DEFAULT_EXTRACTION_LIMITS } })
      const results = await Promise.all([pool.run(request('a.md'), undefined), pool.run(request('b.md'), undefined), pool.run(request('c.md'), undefined)])
      expect(results.map((passages) => passages.length)).toEqual([2, 2, 2])
      expect(pool.threadCount).toBe(1)
      const slow = { ...bigHtml(200_000), maximumChunkLength: 1000, limits: { ...DEFAULT_EXTRACTION_LIMITS, timeMs: 100 } }
      expect((await failure(pool.run(slow, undefined))).code).toBe('TIME_LIMIT')
      expect(pool.threadCount).toBe(0)
      expect(await pool.run(request('d.md'), undefined)).toHaveLength(2)
      expect(pool.threadCount).toBe(1)
    } finally {
      await pool.close()
    }
    expect(pool.threadCount).toBe(0)
  })

  it('refuses a size outside 1..64', () => {
    expect(() => new ExtractionWorkerPool({ size: 0 })).toThrow(/size: expected an integer from 1 to 64, received 0/)
  })
})

describe('configureExtractionWorkers', () => {
  it('sets the pool size for the next extractions and refuses sizes outside 1..64', async () => {
    await expect(configureExtractionWorkers({ poolSize: 0 })).rejects.toThrow('poolSize: expected an integer from 1 to 64, received 0')
    await configureExtractionWorkers({ poolSize: 2 })
    try {
      const results = await Promise.all([extractPassages(small), extractPassages({ ...small, key: 'other.md' })])
      expect(results.map((passages) => passages[0]!.content)).toEqual(['Small', 'Small'])
    } finally {
      await configureExtractionWorkers({ poolSize: 1 })
    }
  })
})
