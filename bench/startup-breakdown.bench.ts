/**
 * Where the idle memory of `botshelf serve` goes (issue 29, decisions 1475 and 1480), on the built CLI (`npm run build`):
 *
 *   npm run bench:startup-breakdown
 *
 * Part 1, by module group: a fresh Node.js process imports the groups a serving process loads, in the order it loads
 * them, and prints after each the RSS and the live V8 heap after a full collection (`--expose-gc`). Cumulative;
 * a group's RSS step also carries the pages of the `node` binary and the allocator that its first use touches.
 * Part 2, the idle server: `botshelf serve` on an empty data folder with a preload that prints, 3 s and 30 s after
 * the start, V8's heap spaces (physical size) and the resident pages by mapping (`/proc/self/smaps`). The floor in
 * both is a bare `node:http` server.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const checkout = fileURLToPath(new URL('../', import.meta.url))
const server = join(checkout, 'server')
const dist = (path: string): string => JSON.stringify(new URL(`server/dist/${path}`, `file://${checkout}`).href)

/** The groups, cumulative, in the order `botshelf serve` imports them. */
const groups: Array<[string, string]> = [
  ['node:http (the floor)', `await import('node:http')`],
  ['better-sqlite3 (native binding)', `await import('better-sqlite3')`],
  ['zod', `await import('zod')`],
  ['Hono and its Node.js adapter', `await import('hono'); await import('@hono/node-server')`],
  ['botshelf/api (the wire: every operation\'s schemas)', `await import('botshelf/api')`],
  ['the store (SQLite adapter, every port)', `await import(${dist('store/open-backend.js')})`],
  ['the files area (routes, indexing jobs, search routes)', `await import(${dist('files/feature.js')})`],
  ['the tables area (routes, computed columns, row search)', `await import(${dist('tables/feature.js')})`],
  ['the app (pipeline, webhooks, admin, console, metrics, OpenAPI)', `await import(${dist('http/app.js')})`],
  ['the server and the serve command', `await import(${dist('http/server.js')}); await import(${dist('cli/serve.js')})`],
]

function run(args: string[], cwd: string, untilMs: number, label = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, BENCH_LABEL: label }, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGTERM'), untilMs)
    child.once('error', reject)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(stderr)
    })
  })
}

const measure = `const m = () => { globalThis.gc(); const u = process.memoryUsage(); return [u.rss / 1e6, u.heapUsed / 1e6] }`
const importing = `${measure}
let [rss0, heap0] = m()
process.stderr.write('| (start: node itself) | ' + rss0.toFixed(1) + ' | | ' + heap0.toFixed(1) + ' | |\\n')
${groups
  .map(
    ([label, code]) => `${code}
{ const [rss, heap] = m(); process.stderr.write('| ${label.replace(/'/g, "\\'")} | ' + rss.toFixed(1) + ' | +' + (rss - rss0).toFixed(1) + ' | ' + heap.toFixed(1) + ' | +' + (heap - heap0).toFixed(1) + ' |\\n'); rss0 = rss; heap0 = heap }`,
  )
  .join('\n')}
process.exit(0)`

const spaces = `import v8 from 'node:v8'
import { readFileSync } from 'node:fs'
const report = (label) => {
  const s = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, x.physical_space_size / 1e6]))
  const byMap = new Map(); let name = ''
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \\S+ \\S+ \\S+ \\S+\\s*(.*)$/.exec(line)
    if (head) { name = head[1].includes('/node_modules/') ? 'native modules' : head[1].endsWith('/node') ? 'node binary' : head[1] === '' ? 'anonymous (V8 heap, ...)' : head[1].startsWith('[') ? head[1] : 'other files'; continue }
    const rss = /^Rss:\\s+(\\d+) kB/.exec(line)
    if (rss) byMap.set(name, (byMap.get(name) ?? 0) + Number(rss[1]) / 1000)
  }
  const f = (x) => (x ?? 0).toFixed(1)
  process.stderr.write('| ' + label + ' | ' + f(process.memoryUsage().rss / 1e6) + ' | ' + f(s.new_space) + ' | ' + f(s.old_space) + ' | ' + f((s.code_space ?? 0) + (s.large_object_space ?? 0)) + ' | ' + f(byMap.get('node binary')) + ' | ' + f(byMap.get('anonymous (V8 heap, ...)')) + ' | ' + f(byMap.get('[heap]')) + ' | ' + f(byMap.get('native modules')) + ' |\\n')
}
setTimeout(() => report(process.env.BENCH_LABEL + ', 3 s'), 3000).unref()
setTimeout(() => report(process.env.BENCH_LABEL + ', 30 s'), 30000).unref()`
const preload = `data:text/javascript,${encodeURIComponent(spaces)}`

const folder = await mkdtemp(join(os.tmpdir(), 'botshelf-breakdown-'))
try {
  const parts: string[] = []
  parts.push('| group (cumulative) | RSS MB | step | live heap MB | step |\n|---|---:|---:|---:|---:|')
  parts.push((await run(['--expose-gc', '--input-type=module', '-e', importing], server, 120_000)).trim())
  parts.push('\n| process | RSS | new space | old space | code + large objects | node binary pages | anonymous | malloc heap | native modules |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|')
  parts.push(
    (
      await run(['--import', preload, '-e', `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1')`], server, 31_000, 'bare node:http server')
    ).trim(),
  )
  const serve = await run(['--import', preload, join(server, 'dist/cli/bin.js'), 'serve', '--port', '0', '--data', join(folder, 'data'), '--log-level', 'warn'], server, 31_000, 'botshelf serve, empty data folder')
  parts.push(serve.split('\n').filter((line) => line.startsWith('| ')).join('\n'))
  process.stdout.write(
    `Idle memory by part: node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${new Date().toISOString()}\n\n${parts.join('\n')}\n`,
  )
} finally {
  await rm(folder, { recursive: true, force: true })
}
