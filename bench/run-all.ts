/**
 * Every bench, short settings, one table: `npm run bench` (= `npx tsx bench/run-all.ts`).
 *
 * Runs each bench listed in `BENCHES` one after another in its own process (`tsx`), with the quick options given
 * there, keeps its output in `bench/results/<name>.log`, and collects the `RATIO {json}` lines it prints
 * (`bench/report/ratio-line.ts`). At the end it prints one Markdown table: every ratio against its baseline and
 * its goal, then the benches that failed (exit code, last line of error) or printed no ratio. A failing bench is a
 * row of the table, not the end of the run. The exit code is 0 when every listed bench ran, whatever the ratios
 * (they move with the machine's load; the table says which rows are under their goal).
 *
 * Options:
 *   --only events,client   run these benches only (names as in the table)
 *   --timeout 900          seconds a bench may run before it is stopped and reported as failed (default 900)
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { RATIO_MARKER, type RatioRow } from './report/index.js'

/** One bench and the options that keep it short (a few seconds to a minute on a quiet 2-core machine). */
export interface BenchEntry {
  /** File under `bench/`. */
  file: string
  /** Quick options for `npm run bench`; the bench's own header documents the full run. */
  args: string[]
  /** Extra environment, e.g. a database URL. */
  env?: Record<string, string>
}

/**
 * Every bench of `bench/*.bench.ts`, with its quick options. A new bench goes here: a bench file that is not listed
 * is reported as "not listed" at the end of the run, so it cannot be forgotten silently.
 */
export const BENCHES: readonly BenchEntry[] = [
  { file: 'events.bench.ts', args: ['--seconds', '1', '--rounds', '3'] },
  { file: 'client.bench.ts', args: ['--seconds', '1', '--rounds', '3'] },
  { file: 'client-overhead.bench.ts', args: ['--seconds', '1', '--rounds', '3'] },
  { file: 'rate-limit.bench.ts', args: ['--seconds', '1', '--rounds', '5'] },
  { file: 'tables.bench.ts', args: ['--rows', '100000'] },
  { file: 'files.bench.ts', args: ['--sizes', '1MB,100MB', '--list-files', '10000'] },
  { file: 'transfer.bench.ts', args: ['--rows', '100000'] },
  { file: 'search.bench.ts', args: ['--passages', '5000', '--seconds', '1'] },
  { file: 'pg-search.bench.ts', args: ['--passages', '5000', '--queries', '30'] },
  { file: 'postgres-client.bench.ts', args: [], env: { BOTSHELF_BENCH_N: '2000' } },
  { file: 's3-upload.bench.ts', args: ['--size', '64MB', '--part-size', '8MB', '--rounds', '1'] },
  { file: 'console.bench.ts', args: ['--files', '500', '--rounds', '1'] },
  { file: 'backends.bench.ts', args: ['--backend', 'both', '--rows', '10000', '--samples', '50'] },
  { file: 'pool-size.bench.ts', args: ['--pools', '5,10,20', '--concurrency', '1,32', '--seconds', '1', '--rounds', '1'] },
  { file: 'small-files.bench.ts', args: ['--files', '2000', '--rounds', '2'] },
  { file: 'http-overhead.bench.ts', args: ['--seconds', '5', '--rounds', '2'] },
  { file: 'health-under-load.bench.ts', args: ['--clients', '200', '--seconds', '10'] },
  { file: 'dataset.bench.ts', args: ['--rows', '20000', '--files', '10'] },
  { file: 'code-columns.bench.ts', args: ['--seconds', '1', '--rounds', '3'] },
  { file: 'sweep-questions.bench.ts', args: ['--engine', 'postgres', '--files', '20000'] },
]

/** What one bench did: its status, its time and the ratios it printed. */
export interface BenchOutcome {
  name: string
  status: 'ok' | 'failed' | 'missing'
  seconds: number
  ratios: RatioRow[]
  detail?: string
}

const benchDir = dirname(fileURLToPath(import.meta.url))
const nameOf = (file: string): string => file.replace(/\.bench\.ts$/, '')

/**
 * The `RATIO` rows of a bench's standard output; a malformed line is skipped (and named in the log).
 *
 * @example
 * ratioLinesOf('x\nRATIO {"bench":"a","row":"r","botshelf":2,"baseline":1,"unit":"/s"}\n') // [{ bench: 'a', ... }]
 */
export function ratioLinesOf(stdout: string): RatioRow[] {
  const rows: RatioRow[] = []
  for (const line of stdout.split('\n')) {
    if (!line.startsWith(RATIO_MARKER)) continue
    try {
      const row = JSON.parse(line.slice(RATIO_MARKER.length)) as RatioRow
      if (typeof row.row === 'string' && typeof row.botshelf === 'number' && typeof row.baseline === 'number') rows.push(row)
    } catch {
      // not JSON: left in the log for whoever reads it
    }
  }
  return rows
}

/** Where `runBench` finds bench files, how long each may run, and where their logs go. */
export interface RunSettings {
  /** Folder of the bench files (default: `bench/`). */
  dir: string
  timeoutSeconds: number
  logDir: string
}

/**
 * Runs one bench to its end (or its timeout) in its own process and keeps its output; never throws.
 *
 * @example
 * const outcome = await runBench({ file: 'events.bench.ts', args: ['--seconds', '1'] }, { dir: 'bench', timeoutSeconds: 600, logDir: 'bench/results' })
 * outcome.status // 'ok' | 'failed' | 'missing'
 */
export function runBench(entry: BenchEntry, settings: RunSettings): Promise<BenchOutcome> {
  const { timeoutSeconds, logDir } = settings
  const name = nameOf(entry.file)
  const path = join(settings.dir, entry.file)
  if (!existsSync(path)) return Promise.resolve({ name, status: 'missing', seconds: 0, ratios: [], detail: `bench/${entry.file} does not exist` })
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path, ...entry.args], {
      cwd: join(benchDir, '..'), // where `tsx` resolves, whatever folder the bench is in
      env: { ...process.env, ...entry.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      // Progress for whoever watches: the ratio lines as they come.
      for (const line of chunk.split('\n')) if (line.startsWith(RATIO_MARKER)) process.stderr.write(`  ${name}: ${line.slice(RATIO_MARKER.length, 160)}\n`)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const seconds = (performance.now() - started) / 1000
      writeFileSync(join(logDir, `${name}.log`), `$ ${['tsx', `bench/${entry.file}`, ...entry.args].join(' ')}\n\n${stdout}\n--- stderr ---\n${stderr}`)
      const ratios = ratioLinesOf(stdout)
      if (code === 0) return resolve({ name, status: 'ok', seconds, ratios })
      // The error's own line (Node ends an uncaught error with its version line, which says nothing).
      const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('Node.js v'))
      const lastError = lines.filter((line) => /error/i.test(line)).slice(-1)[0] ?? lines.slice(-1)[0] ?? ''
      const why = signal === 'SIGKILL' ? `stopped after ${timeoutSeconds} s` : `exit code ${code ?? signal}`
      resolve({ name, status: 'failed', seconds, ratios, detail: `${why}: ${lastError.slice(0, 200)}` })
    })
  })
}

const formatNumber = (value: number): string =>
  !Number.isFinite(value) ? String(value) : Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : value.toPrecision(3)

/**
 * The one table of the run, in Markdown: a row per ratio (with its goal and whether it is met), a row per bench that
 * failed, was missing or printed no ratio, a row per bench file not listed.
 *
 * @example
 * ratioTable([{ name: 'events', status: 'ok', seconds: 20, ratios }], [])
 */
export function ratioTable(outcomes: readonly BenchOutcome[], unlisted: readonly string[]): string {
  const lines = [
    '| bench | row | botshelf | baseline | unit | ratio | goal | at goal |',
    '|---|---|---:|---:|---|---:|---:|---|',
  ]
  for (const outcome of outcomes) {
    for (const row of outcome.ratios) {
      const ratio = row.lowerIsBetter ? row.baseline / row.botshelf : row.botshelf / row.baseline
      const verdict = row.goal === undefined ? '' : ratio >= row.goal ? 'yes' : '**no**'
      lines.push(
        `| ${outcome.name} | ${row.row} | ${formatNumber(row.botshelf)} | ${formatNumber(row.baseline)} | ${row.unit}${row.lowerIsBetter ? ' (lower is better)' : ''} | ${ratio.toFixed(3)} | ${row.goal === undefined ? '' : `≥ ${row.goal}`} | ${verdict} |`,
      )
    }
    if (outcome.status !== 'ok') lines.push(`| ${outcome.name} | **${outcome.status}**: ${outcome.detail ?? ''} | | | | | | |`)
    else if (outcome.ratios.length === 0) lines.push(`| ${outcome.name} | ran (${outcome.seconds.toFixed(0)} s), printed no RATIO line | | | | | | |`)
  }
  for (const file of unlisted) lines.push(`| ${nameOf(file)} | not listed in bench/run-all.ts: not run | | | | | | |`)
  return lines.join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, timeout: { type: 'string', default: '900' } } })
  const timeoutSeconds = Number(values.timeout)
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error(`--timeout: expected seconds, received ${values.timeout}`)
  const only = values.only?.split(',').map((name) => name.trim())
  const listed = new Set(BENCHES.map((entry) => entry.file))
  const unknown = (only ?? []).filter((name) => !listed.has(`${name}.bench.ts`))
  if (unknown.length > 0) throw new Error(`--only: expected names among ${BENCHES.map((e) => nameOf(e.file)).join(', ')}, received ${unknown.join(', ')}`)
  const selected = BENCHES.filter((entry) => !only || only.includes(nameOf(entry.file)))
  const unlisted = only ? [] : readdirSync(benchDir).filter((file) => file.endsWith('.bench.ts') && !listed.has(file))

  const logDir = join(benchDir, 'results')
  mkdirSync(logDir, { recursive: true })
  const startedAt = new Date()
  const loadBefore = loadavg()
  const outcomes: BenchOutcome[] = []
  for (const entry of selected) {
    process.stderr.write(`running bench/${entry.file} ${entry.args.join(' ')}\n`)
    const outcome = await runBench(entry, { dir: benchDir, timeoutSeconds, logDir })
    process.stderr.write(`  ${outcome.status} in ${outcome.seconds.toFixed(0)} s${outcome.detail ? ` (${outcome.detail})` : ''}\n`)
    outcomes.push(outcome)
  }
  const loadAfter = loadavg()
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const header =
    `Machine: ${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}. ` +
    `Started ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${((Date.now() - startedAt.getTime()) / 60_000).toFixed(1)} min; ` +
    `load average (1 min) ${loadBefore[0]!.toFixed(1)} before, ${loadAfter[0]!.toFixed(1)} after. Logs: bench/results/.`
  const report = `${header}\n\n${ratioTable(outcomes, unlisted)}\n`
  writeFileSync(join(logDir, 'summary.md'), report)
  process.stdout.write(`\n${report}`)
  if (outcomes.some((outcome) => outcome.status !== 'ok')) process.exitCode = 1
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
