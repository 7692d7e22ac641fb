/**
 * Code columns' sandbox: `npx tsx bench/code-columns.bench.ts [--seconds 3] [--rounds 3] [--isolated-vm <folder>]`.
 *
 * What decision 1423 chose by, measured in one run:
 * 1. The sandbox as the service runs it (`createCodeSandbox`, worker threads, from `server/dist` when it is built so
 *    that a worker starts as in production; from the sources otherwise, which adds the TypeScript loader to every
 *    worker start): its cold start (a new sandbox until the first computation is answered: thread, engine, run), its
 *    warm start (one trivial computation on a warm sandbox: message, fresh runtime and context, answer) and the
 *    computations per second of a realistic code column at concurrency 1 and 2.
 * 2. The engines in this thread, each computation in a fresh context: QuickJS (the WebAssembly build the sandbox
 *    loads, fresh runtime + context per computation), `isolated-vm` (a V8 isolate: fresh context per computation in a
 *    warm isolate; cold start = a new isolate) when `--isolated-vm` names an installed copy (it is not a dependency:
 *    a native module whose releases each support a narrow range of Node versions, see the decision), and `node:vm`
 *    (not a sandbox, the baseline every run has: fresh context per computation).
 * Each figure is the median of `--rounds` rounds; the contenders of section 2 alternate order each round. Prints a
 * Markdown table for bench/README.md and `RATIO` lines for `npm run bench` (QuickJS against `node:vm`, and against
 * isolated-vm when it was measured).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import vm from 'node:vm'
import type * as SandboxModule from '../server/src/tables/computed/sandbox/index.js'
import { loadQuickJs } from '../server/src/tables/computed/sandbox/load-quickjs.js'
import { runInQuickJs } from '../server/src/tables/computed/sandbox/run-in-quickjs.js'
import { printRatio } from './report/index.js'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    'isolated-vm': { type: 'string' },
  },
})
const SECONDS = Number(values.seconds)
const ROUNDS = Number(values.rounds)
const MEMORY_LIMIT_BYTES = 64 * 1024 * 1024
const TIME_LIMIT_MS = 1000

/** A realistic code column: words of a text, a label from a price band, a total over line items. */
const CODE = `const words = row.text.split(/\\s+/).filter(Boolean)
const total = row.items.reduce((sum, item) => sum + item.price * item.quantity, 0)
return { words: words.length, title: row.title.trim().toUpperCase(), band: total > 100 ? 'high' : 'low', total }`
const ROW = {
  title: '  Order for the spring fair ',
  text: 'Two tables, six chairs and a lamp for the entrance, delivered before Friday morning please',
  items: [
    { price: 40, quantity: 2 },
    { price: 12.5, quantity: 6 },
    { price: 30, quantity: 1 },
  ],
}
const EXPECTED = JSON.stringify({ words: 15, title: 'ORDER FOR THE SPRING FAIR', band: 'high', total: 185 })

const median = (numbers: number[]): number => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!
const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits

/** The sandbox module: built (as production runs it) when present, else the sources. */
async function sandboxModule(): Promise<{ module: typeof SandboxModule; from: string }> {
  const built = fileURLToPath(new URL('../server/dist/tables/computed/sandbox/index.js', import.meta.url))
  if (existsSync(built)) return { module: (await import(built)) as typeof SandboxModule, from: 'server/dist' }
  return { module: await import('../server/src/tables/computed/sandbox/index.js'), from: 'server/src (TypeScript loader in each worker)' }
}

/** Computations per second of the clock, and per second of this process's CPU time (all its threads). */
interface Rate {
  wall: number
  cpu: number
}

/**
 * Runs `once` again and again for `seconds`. The CPU-time rate moves far less than the clock rate on a shared
 * machine, where the clock also counts the time the neighbours hold the cores.
 */
async function perSecond(once: () => unknown | Promise<unknown>, seconds: number, perCall = 1): Promise<Rate> {
  const end = performance.now() + seconds * 1000
  let count = 0
  const start = performance.now()
  const cpuBefore = process.cpuUsage()
  while (performance.now() < end) {
    await once()
    count += perCall
  }
  const cpu = process.cpuUsage(cpuBefore)
  return { wall: count / ((performance.now() - start) / 1000), cpu: count / ((cpu.user + cpu.system) / 1e6) }
}

const medianRate = (rates: Rate[]): Rate => ({ wall: median(rates.map((rate) => rate.wall)), cpu: median(rates.map((rate) => rate.cpu)) })

async function timeOf(action: () => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now()
  await action()
  return performance.now() - start
}

// --- 1. the sandbox as the service runs it ---------------------------------------------------------------------

async function measureSandbox(module: typeof SandboxModule): Promise<{ coldMs: number; warmMs: number; single: Rate; double: Rate }> {
  const cold: number[] = []
  const warm: number[] = []
  const single: Rate[] = []
  const double: Rate[] = []
  for (let index = 0; index < ROUNDS; index += 1) {
    const sandbox = module.createCodeSandbox({ timeLimitMs: TIME_LIMIT_MS, memoryLimitBytes: MEMORY_LIMIT_BYTES, concurrency: 1 })
    cold.push(await timeOf(() => sandbox.run('return 1', {})))
    const warmTimes: number[] = []
    for (let i = 0; i < 50; i += 1) warmTimes.push(await timeOf(() => sandbox.run('return 1', {})))
    warm.push(median(warmTimes))
    const check = await sandbox.run(CODE, ROW)
    if (!check.ok || JSON.stringify(check.value) !== EXPECTED) throw new Error(`the code column gave ${JSON.stringify(check)}`)
    single.push(await perSecond(() => sandbox.run(CODE, ROW), SECONDS))
    await sandbox.close()
    const pair = module.createCodeSandbox({ timeLimitMs: TIME_LIMIT_MS, memoryLimitBytes: MEMORY_LIMIT_BYTES, concurrency: 2 })
    await Promise.all([pair.run('return 1', {}), pair.run('return 1', {})])
    double.push(await perSecond(() => Promise.all([pair.run(CODE, ROW), pair.run(CODE, ROW)]), SECONDS, 2))
    await pair.close()
  }
  return { coldMs: median(cold), warmMs: median(warm), single: medianRate(single), double: medianRate(double) }
}

// --- 2. the engines in this thread -----------------------------------------------------------------------------

interface EngineFigures {
  coldMs: number
  warmMs: number
  rate: Rate
}

interface Contender {
  name: string
  cold: () => Promise<void>
  once: () => void
}

async function quickJsContender(): Promise<Contender> {
  let engine = await loadQuickJs(MEMORY_LIMIT_BYTES)
  const once = (): void => {
    const outcome = runInQuickJs(engine, { code: CODE, rowJson: JSON.stringify(ROW), timeLimitMs: TIME_LIMIT_MS, memoryLimitBytes: MEMORY_LIMIT_BYTES })
    if (outcome.kind !== 'value' || outcome.json !== EXPECTED) throw new Error(`QuickJS gave ${JSON.stringify(outcome)}`)
  }
  return {
    name: 'QuickJS (WebAssembly)',
    // A new engine (instantiate the compiled build with memory of its own) and its first computation.
    cold: async () => {
      engine = await loadQuickJs(MEMORY_LIMIT_BYTES)
      once()
    },
    once,
  }
}

/** The minimal surface of isolated-vm this bench uses. */
interface IvmLike {
  Isolate: new (options: { memoryLimit: number }) => {
    createContextSync(): { evalSync(code: string, options?: { timeout?: number; copy?: boolean }): unknown; release(): void }
    dispose(): void
  }
}

function isolatedVmContender(ivm: IvmLike): Contender {
  const syncSource = `JSON.stringify((function (row) {\n${CODE}\n})(JSON.parse(${JSON.stringify(JSON.stringify(ROW))})))`
  let isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_BYTES / (1024 * 1024) })
  const once = (): void => {
    const context = isolate.createContextSync()
    // evalSync does not await inside the isolate; the body runs as a plain function (this code awaits nothing).
    const json = context.evalSync(syncSource, { timeout: TIME_LIMIT_MS, copy: true })
    context.release()
    if (json !== EXPECTED) throw new Error(`isolated-vm gave ${String(json)}`)
  }
  return {
    name: 'isolated-vm (V8 isolate)',
    cold: async () => {
      isolate.dispose()
      isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_BYTES / (1024 * 1024) })
      once()
    },
    once,
  }
}

function nodeVmContender(): Contender {
  const script = new vm.Script(`JSON.stringify((function (row) {\n${CODE}\n})(JSON.parse(rowJson)))`)
  const once = (): void => {
    const context = vm.createContext({ rowJson: JSON.stringify(ROW) })
    const json = script.runInContext(context, { timeout: TIME_LIMIT_MS })
    if (json !== EXPECTED) throw new Error(`node:vm gave ${String(json)}`)
  }
  return { name: 'node:vm (not a sandbox; baseline)', cold: async () => once(), once }
}

async function measureEngines(contenders: Contender[]): Promise<Map<string, EngineFigures>> {
  const samples = new Map(contenders.map((contender) => [contender.name, { cold: [] as number[], warm: [] as number[], rate: [] as Rate[] }]))
  for (let index = 0; index < ROUNDS; index += 1) {
    const order = contenders.map((_, i) => contenders[(i + index) % contenders.length]!)
    for (const contender of order) {
      const sample = samples.get(contender.name)!
      const colds: number[] = []
      for (let i = 0; i < 5; i += 1) colds.push(await timeOf(contender.cold))
      sample.cold.push(median(colds))
      const warms: number[] = []
      for (let i = 0; i < 50; i += 1) warms.push(await timeOf(contender.once))
      sample.warm.push(median(warms))
      sample.rate.push(await perSecond(contender.once, SECONDS))
    }
  }
  return new Map([...samples].map(([name, sample]) => [name, { coldMs: median(sample.cold), warmMs: median(sample.warm), rate: medianRate(sample.rate) }]))
}

async function loadIsolatedVm(folder: string | undefined): Promise<IvmLike | undefined> {
  if (!folder) return undefined
  const required = createRequire(import.meta.url)(folder) as IvmLike
  return required
}

async function main(): Promise<void> {
  const { module, from } = await sandboxModule()
  const ivm = await loadIsolatedVm(values['isolated-vm'])
  const contenders = [await quickJsContender(), ...(ivm ? [isolatedVmContender(ivm)] : []), nodeVmContender()]
  const engines = await measureEngines(contenders)
  const sandbox = await measureSandbox(module)

  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  console.log(`\nMachine: ${cpus().length} cores (${cpu}), Node ${process.version}. Date: ${new Date().toISOString().slice(0, 10)}. Load average ${loadavg()[0]!.toFixed(1)}.`)
  console.log(`Options: --seconds ${SECONDS} --rounds ${ROUNDS}; sandbox from ${from}.\n`)
  console.log('| the sandbox (createCodeSandbox, worker threads) | figure |')
  console.log('|---|---:|')
  console.log(`| cold start: new sandbox until the first computation is answered | ${round(sandbox.coldMs, 1)} ms |`)
  console.log(`| warm start: one trivial computation on a warm worker | ${round(sandbox.warmMs, 3)} ms |`)
  console.log(`| code-column computations per second, concurrency 1 (per CPU second) | ${Math.round(sandbox.single.wall)} (${Math.round(sandbox.single.cpu)}) |`)
  console.log(`| code-column computations per second, concurrency 2 (per CPU second) | ${Math.round(sandbox.double.wall)} (${Math.round(sandbox.double.cpu)}) |`)
  console.log('\n| engine, in this thread, fresh context per computation | cold start | warm computation | computations/s | per CPU second |')
  console.log('|---|---:|---:|---:|---:|')
  for (const [name, figures] of engines) {
    console.log(`| ${name} | ${round(figures.coldMs, 2)} ms | ${round(figures.warmMs, 3)} ms | ${Math.round(figures.rate.wall)} | ${Math.round(figures.rate.cpu)} |`)
  }
  console.log('')

  const quickJs = engines.get(contenders[0]!.name)!
  const nodeVm = engines.get(contenders.at(-1)!.name)!
  printRatio({ bench: 'code-columns', row: 'engine computations per CPU second, QuickJS vs node:vm (not a sandbox)', botshelf: quickJs.rate.cpu, baseline: nodeVm.rate.cpu, unit: '/CPU s' })
  printRatio({ bench: 'code-columns', row: 'sandbox computations per CPU second (concurrency 1) vs node:vm in-thread', botshelf: sandbox.single.cpu, baseline: nodeVm.rate.cpu, unit: '/CPU s' })
  printRatio({ bench: 'code-columns', row: 'engine cold start, QuickJS vs node:vm', botshelf: quickJs.coldMs, baseline: nodeVm.coldMs, unit: 'ms', lowerIsBetter: true })
  if (ivm) {
    const isolated = engines.get(contenders[1]!.name)!
    printRatio({ bench: 'code-columns', row: 'engine computations per CPU second, QuickJS vs isolated-vm', botshelf: quickJs.rate.cpu, baseline: isolated.rate.cpu, unit: '/CPU s' })
    printRatio({ bench: 'code-columns', row: 'engine cold start, QuickJS vs isolated-vm', botshelf: quickJs.coldMs, baseline: isolated.coldMs, unit: 'ms', lowerIsBetter: true })
  }
}

await main()
