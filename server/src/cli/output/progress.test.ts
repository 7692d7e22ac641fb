import { describe, expect, it } from 'vitest'
import { createProgress } from './progress.js'

function capture() {
  const lines: string[] = []
  return { lines, io: { stdout: { write: () => true }, stderr: { write: (t: string) => lines.push(t) } } }
}

describe('createProgress as plain lines', () => {
  it('prints one line per tenth of a known total, with rate and ETA from the clock, then the summary', () => {
    const { lines, io } = capture()
    let ms = 0
    const progress = createProgress(io, { label: 'put', unit: 'bytes', total: 10_000, now: () => ms })
    for (let i = 0; i < 20; i++) {
      ms += 100
      progress.advance(500, `${i + 1}/20 files`)
    }
    progress.done('uploaded 20 of 20 files (10.0 kB)')
    expect(lines).toHaveLength(11)
    expect(lines[0]).toBe('put: 10% 1.0 kB/10.0 kB (2/20 files), 5.0 kB/s, ETA 2s\n')
    expect(lines[4]).toBe('put: 50% 5.0 kB/10.0 kB (10/20 files), 5.0 kB/s, ETA 1s\n')
    expect(lines[9]).toBe('put: 100% 10.0 kB/10.0 kB (20/20 files), 5.0 kB/s, ETA 0s\n')
    expect(lines[10]).toBe('put: uploaded 20 of 20 files (10.0 kB)\n')
  })

  it('prints a line per step when the total is unknown, without percentage or ETA', () => {
    const { lines, io } = capture()
    let ms = 0
    const progress = createProgress(io, { label: 'export', unit: 'rows', now: () => ms })
    for (let i = 0; i < 5; i++) {
      ms += 1000
      progress.advance(500)
    }
    expect(lines).toEqual(['export: 1000 rows, 500 rows/s\n', 'export: 2000 rows, 500 rows/s\n'])
  })

  it('never writes escape codes to a stream that is not a terminal', () => {
    const { lines, io } = capture()
    const progress = createProgress(io, { label: 'get', unit: 'bytes', total: 100 })
    progress.advance(100)
    progress.done('done')
    expect(lines.join('')).not.toMatch(/\x1b|\r/)
  })
})
