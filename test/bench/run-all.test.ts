import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BENCHES, ratioLinesOf, ratioTable, runBench } from '../../bench/run-all.js'

const dir = mkdtempSync(join(tmpdir(), 'botshelf-run-all-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ratio = (row: string, botshelf: number, baseline: number, goal?: number) =>
  `RATIO ${JSON.stringify({ bench: 'fake', row, botshelf, baseline, unit: 'ops/s', ...(goal === undefined ? {} : { goal }) })}`

writeFileSync(join(dir, 'good.bench.ts'), `console.log('| a table |')\nconsole.log(${JSON.stringify(ratio('fast row', 300, 100, 1.2))})\nconsole.log(${JSON.stringify(ratio('slow row', 50, 100, 0.8))})\nconsole.log('RATIO {not json')\n`)
writeFileSync(join(dir, 'broken.bench.ts'), `console.log(${JSON.stringify(ratio('before the crash', 1, 1))})\nthrow new Error('database unreachable')\n`)

describe('npm run bench (bench/run-all.ts)', () => {
  const settings = { dir, timeoutSeconds: 60, logDir: dir }

  it('collects the RATIO lines of a bench and skips malformed ones', async () => {
    const outcome = await runBench({ file: 'good.bench.ts', args: [] }, settings)
    expect(outcome.status).toBe('ok')
    expect(outcome.ratios.map((row) => row.row)).toEqual(['fast row', 'slow row'])
    expect(readFileSync(join(dir, 'good.log'), 'utf8')).toContain('| a table |')
  })

  it('reports a failing bench and a missing one as rows of the table, not as a crash of the run', async () => {
    const broken = await runBench({ file: 'broken.bench.ts', args: [] }, settings)
    const missing = await runBench({ file: 'nowhere.bench.ts', args: [] }, settings)
    expect(broken).toMatchObject({ status: 'failed' })
    expect(broken.detail).toContain('database unreachable')
    expect(missing.status).toBe('missing')
    const good = await runBench({ file: 'good.bench.ts', args: [] }, settings)
    const markdown = ratioTable([good, broken, missing], ['new.bench.ts'])
    expect(markdown).toContain('| good | fast row | 300 | 100 | ops/s | 3.000 | ≥ 1.2 | yes |')
    expect(markdown).toContain('| good | slow row | 50.0 | 100 | ops/s | 0.500 | ≥ 0.8 | **no** |')
    expect(markdown).toMatch(/\| broken \| \*\*failed\*\*: exit code 1: .*database unreachable/)
    expect(markdown).toContain('| nowhere | **missing**')
    expect(markdown).toContain('| new | not listed in bench/run-all.ts: not run |')
  })

  it('lists every bench file of bench/ (a new one must be added with its quick options)', () => {
    const files = BENCHES.map((entry) => entry.file)
    expect(new Set(files).size).toBe(files.length)
    expect(ratioLinesOf('x\nRATIO {"bench":"a","row":"r","botshelf":2,"baseline":1,"unit":"/s"}\n')).toHaveLength(1)
  })
})
