/**
 * Pool-size bench: the PostgreSQL backend's connection pool (`openPostgresBackend({ poolSize })`) under concurrent
 * calls. For each pool size and each number of calls in flight, workers call the port back to back for a few
 * seconds: `findTableRows` (`amount >= x`, a page of 20, 10k rows), `getFile`, and a mix where one call in 8 is a
 * slow one (a group: count and sum per category over the 10k rows, a full scan) and the rest `getFile`, whose
 * latency is then that of the `getFile` calls only (what a fast call pays for slow ones beside it); throughput
 * (calls/s) and p50 / p95 latency. Which pool size to pick (docs/deploy.md) is read from where throughput stops
 * growing and p95 starts.
 *
 *   npm run bench:pool-size
 *   npx tsx bench/pool-size.bench.ts --pools 5,10,20,40 --concurrency 1,8,32,128 --seconds 2 --rounds 3
 *
 * Each round opens one backend per pool size in turn (a fresh database, 10k files and rows loaded by bulk SQL, so
 * one pool at a time holds connections), so pool sizes alternate through the run and see the same moments of a
 * shared machine; figures are the median over rounds. The load generator runs in the same process as the backend,
 * as the server's routes would call it (no HTTP). Prints Markdown for bench/README.md and, per operation and
 * concurrency, a RATIO line: the default pool's (10) throughput against the best pool size's in the same run.
 */
import { parseArgs } from 'node:util'
import { cpus, loadavg } from 'node:os'
import { benchFileId, TABLE_SCHEMA } from './backends/engine.js'
import { seeded } from './backends/measure.js'
import { openPostgresEngine } from './backends/postgres-engine.js'
import { printRatio } from './report/index.js'
import { DEFAULT_POOL_SIZE } from '../server/src/store/postgres/connect.js'

const { values } = parseArgs({
  options: {
    pools: { type: 'string', default: '5,10,20,40' },
    concurrency: { type: 'string', default: '1,8,32,128' },
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    rows: { type: 'string', default: '10000' },
  },
})

function integers(name: string, text: string, min: number): number[] {
  return text.split(',').map((part) => {
    const value = Number(part.trim())
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name}: expected whole numbers of at least ${min} separated by commas, received ${JSON.stringify(text)}`)
    return value
  })
}
const pools = integers('pools', values.pools, 1)
const levels = integers('concurrency', values.concurrency, 1)
const rounds = integers('rounds', values.rounds, 1)[0]!
const rows = integers('rows', values.rows, 200)[0]!
const seconds = Number(values.seconds)
if (!(seconds > 0)) throw new Error(`--seconds: expected a positive number, received ${JSON.stringify(values.seconds)}`)

/** One cell: calls per second and latency percentiles in ms. */
interface Cell {
  rate: number
  p50: number
  p95: number
}

/**
 * Keeps `inFlight` calls going for `seconds`: each worker starts its next call when its last one answers. Every call
 * counts in the rate; latency is taken over the calls `timed` keeps (all by default).
 */
async function load(inFlight: number, call: (i: number) => Promise<unknown>, timed: (i: number) => boolean = () => true): Promise<Cell> {
  const times: number[] = []
  let next = 0
  let calls = 0
  const started = performance.now()
  const until = started + seconds * 1000
  const worker = async () => {
    while (performance.now() < until) {
      const i = next++
      const at = performance.now()
      await call(i)
      calls++
      if (timed(i)) times.push(performance.now() - at)
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  const elapsed = (performance.now() - started) / 1000
  times.sort((a, b) => a - b)
  const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(times.length * fraction))]!
  return { rate: calls / elapsed, p50: at(0.5), p95: at(0.95) }
}

const OPERATIONS = ['findTableRows', 'getFile', 'getFile beside 1/8 groups'] as const
/** In the mix, the calls that are groups (the others are `getFile`, the ones timed). */
const isGroup = (i: number) => i % 8 === 7
type Operation = (typeof OPERATIONS)[number]
const results = new Map<string, Cell[]>()
const keyOf = (operation: Operation, pool: number, inFlight: number) => `${operation}|${pool}|${inFlight}`

console.log(`Pool-size bench, ${new Date().toISOString()}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), load average at start ${loadavg().map((v) => v.toFixed(2)).join(' ')}`)
console.log(`pools ${pools.join(', ')}; in flight ${levels.join(', ')}; ${seconds} s per cell; ${rounds} rounds; ${rows} rows and files`)
const BOT = 'bot_pool'
for (let round = 0; round < rounds; round++) {
  // Pool sizes in another order each round, so none always runs first or last.
  const order = pools.map((_, i) => pools[(i + round) % pools.length]!)
  for (const pool of order) {
    const engine = await openPostgresEngine({ poolSize: pool })
    try {
      const { tables, files } = engine.backend
      await tables.createTable(BOT, { name: 'poolTable', schema: TABLE_SCHEMA })
      await engine.bulkRows(await tables.loadTable(BOT, 'poolTable'), 1, rows)
      await engine.bulkFiles(BOT, 0, rows - 1)
      await engine.analyze()
      const random = seeded(pool * 1000 + round)
      const picks = Array.from({ length: 4096 }, () => Math.floor(random() * rows))
      const calls: Record<Operation, (i: number) => Promise<unknown>> = {
        findTableRows: (i) => tables.findRows(BOT, 'poolTable', { filter: { amount: { $gte: picks[i % picks.length]! % 9_000 } }, limit: 20 }),
        getFile: (i) => files.getById(BOT, benchFileId(picks[i % picks.length]!)),
        'getFile beside 1/8 groups': (i) =>
          isGroup(i) ? tables.findRows(BOT, 'poolTable', { group: { category: 'key', amount: ['count', 'sum'] }, limit: 100 }) : files.getById(BOT, benchFileId(picks[i % picks.length]!)),
      }
      for (const operation of OPERATIONS) {
        const timed = operation === 'getFile beside 1/8 groups' ? (i: number) => !isGroup(i) : undefined
        await load(4, calls[operation]) // warm-up: statements prepared, connections open
        for (const inFlight of levels) {
          const cell = await load(inFlight, calls[operation], timed)
          const key = keyOf(operation, pool, inFlight)
          results.set(key, [...(results.get(key) ?? []), cell])
          console.error(`round ${round + 1}, pool ${pool}, ${operation}, ${inFlight} in flight: ${Math.round(cell.rate)}/s, p95 ${cell.p95.toFixed(2)} ms, load ${loadavg()[0]!.toFixed(2)}`)
        }
      }
    } finally {
      await engine.close()
    }
  }
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!
const medianCell = (cells: Cell[]): Cell => ({ rate: median(cells.map((c) => c.rate)), p50: median(cells.map((c) => c.p50)), p95: median(cells.map((c) => c.p95)) })
console.log('')
console.log(`| operation | in flight | ${pools.map((p) => `pool ${p}: calls/s, p50 / p95 ms`).join(' | ')} |`)
console.log(`|---|---:|${pools.map(() => '---:').join('|')}|`)
for (const operation of OPERATIONS) {
  for (const inFlight of levels) {
    const cells = pools.map((pool) => medianCell(results.get(keyOf(operation, pool, inFlight))!))
    console.log(`| ${operation} | ${inFlight} | ${cells.map((c) => `${Math.round(c.rate).toLocaleString('en')}, ${c.p50.toFixed(2)} / ${c.p95.toFixed(2)}`).join(' | ')} |`)
    const best = cells.reduce((a, b) => (b.rate > a.rate ? b : a))
    const chosen = pools.indexOf(DEFAULT_POOL_SIZE)
    if (chosen >= 0) {
      printRatio({
        bench: 'pool-size',
        row: `${operation}, ${inFlight} in flight: default pool (${DEFAULT_POOL_SIZE}) vs the best of ${pools.join('/')} (pool ${pools[cells.indexOf(best)]})`,
        botshelf: cells[chosen]!.rate,
        baseline: best.rate,
        unit: 'calls/s',
      })
    }
  }
}
console.log('')
console.log(`load average at end ${loadavg().map((v) => v.toFixed(2)).join(' ')}`)
