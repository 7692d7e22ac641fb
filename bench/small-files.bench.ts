/**
 * Creating many small files: `npx tsx bench/small-files.bench.ts [--files 10000] [--concurrency 16] [--size 256]
 * [--rounds 4]`.
 *
 * botshelf: `botshelf serve` in a child process (file-backed SQLite, rate limits off); each file is an
 * `upsertFile` (PUT /v1/files) then the content PUT to its `uploadUrl`, `--concurrency` files in flight, over
 * keep-alive connections. Floor in the same run: `bench/baselines/durable-file-server.mjs`, a plain node:http
 * process that writes the body to a file, fsyncs it and inserts a row in SQLite (WAL, synchronous = FULL), one
 * request per file; and the wire's floor, `bench/baselines/two-request-file-server.mjs`: the same primitives in the
 * Botpress wire's two requests per file (a JSON upsert that commits a row, then the content PUT: temporary file,
 * fsync, rename, folder fsync, row update and commit), botshelf's durability order without anything else. The three
 * alternate in `--rounds` rounds of `--files / --rounds` files each. The peer the issue
 * names (Supabase Storage, file backend, PostgreSQL) is compared through its recorded figure (420 files/s on this
 * machine, issue 15), or measured in the same run when `--supabase-url` and `--supabase-key` (a service key) are
 * given: it then uploads to `--supabase-bucket` (default `bench`, created if missing) with one POST per file.
 *
 * `--profile DIR` writes a CPU profile of the `serve` child into DIR (`node --cpu-prof`), `--only botshelf` skips the
 * floor (for profiling), `--serve-root DIR` runs the `serve` of another checkout (the code before a change).
 *
 * Prints RATIO lines for `npm run bench` and a Markdown table for bench/README.md.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { printRatio } from './report/index.js'
import { startServe } from './support/serve-process.js'
import { cpuSeconds } from './support/cpu-time.js'

/** Supabase Storage (file backend, PostgreSQL) creating 10,000 files of 256 B, 16 in flight, on this machine (issue 15). */
const RECORDED_SUPABASE_FILES_PER_SECOND = 420

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '16' },
    size: { type: 'string', default: '256' },
    rounds: { type: 'string', default: '4' },
    'supabase-url': { type: 'string' },
    'supabase-key': { type: 'string' },
    'supabase-bucket': { type: 'string', default: 'bench' },
    profile: { type: 'string' },
    'serve-root': { type: 'string' },
    only: { type: 'string' },
  },
})
const files = Number(values.files)
const concurrency = Number(values.concurrency)
const size = Number(values.size)
const rounds = Number(values.rounds)
for (const [name, value] of Object.entries({ files, concurrency, size, rounds })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}: expected a whole number from 1, received ${String(value)}`)
}
const perRound = Math.ceil(files / rounds)
const body = Buffer.alloc(size, 'x')
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency * 2 })

function send(url: string, method: string, headers: Record<string, string>, data: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(data)) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (part: string) => (text += part))
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${method} ${url}: ${res.statusCode} ${text}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(data)
  })
}

/** Runs `count` creations `concurrency` at a time; returns the seconds taken. */
async function timedCreations(count: number, create: (index: number) => Promise<void>): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await create(next++)
    }),
  )
  return (performance.now() - started) / 1000
}

async function startFloor(folder: string, script = 'durable-file-server.mjs'): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`./baselines/${script}`, import.meta.url)), folder], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening (\d+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

async function main(): Promise<void> {
  const floorDir = await mkdtemp(join(os.tmpdir(), 'botshelf-bench-floor-'))
  const serve = await startServe({
    args: ['--rate-limit', 'off', '--log-level', 'warn'],
    ...(values['serve-root'] ? { root: values['serve-root'] } : {}),
    ...(values.profile ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] } : {}),
  })
  const floor = await startFloor(floorDir)
  const wireFloorDir = await mkdtemp(join(os.tmpdir(), 'botshelf-bench-wire-floor-'))
  const wireFloor = await startFloor(wireFloorDir, 'two-request-file-server.mjs')
  const auth = { authorization: `Bearer ${serve.token}`, 'x-bot-id': serve.botId, 'content-type': 'application/json' }
  const supabase = values['supabase-url'] && values['supabase-key'] ? { url: values['supabase-url'].replace(/\/+$/, ''), key: values['supabase-key'], bucket: values['supabase-bucket'] } : undefined
  const supabaseHeaders: Record<string, string> = supabase ? { authorization: `Bearer ${supabase.key}`, apikey: supabase.key } : {}
  if (supabase) {
    await send(`${supabase.url}/bucket`, 'POST', { ...supabaseHeaders, 'content-type': 'application/json' }, JSON.stringify({ id: supabase.bucket, name: supabase.bucket, public: false })).catch((error: unknown) => {
      if (!/already exists|409|Duplicate/i.test(String(error))) throw error
    })
  }
  const seconds = { botshelf: 0, floor: 0, wireFloor: 0, supabase: 0 }
  const pids = { botshelf: serve.process.pid, floor: floor.pid, wireFloor: wireFloor.pid }
  const cpuAtStart = { botshelf: cpuSeconds(pids.botshelf), floor: cpuSeconds(pids.floor), wireFloor: cpuSeconds(pids.wireFloor) }
  const cpuUsed: { botshelf?: number; floor?: number; wireFloor?: number } = {}
  const created = { botshelf: 0, floor: 0, wireFloor: 0, supabase: 0 }
  try {
    for (let round = 0; round < rounds; round++) {
      const count = Math.min(perRound, files - round * perRound)
      if (count <= 0) break
      const base = round * perRound
      seconds.botshelf += await timedCreations(count, async (i) => {
        const answer = JSON.parse(await send(`${serve.url}/v1/files`, 'PUT', auth, JSON.stringify({ key: `small/${base + i}.txt`, size }))) as { file: { uploadUrl: string } }
        await send(answer.file.uploadUrl, 'PUT', { 'content-type': 'text/plain' }, body)
      })
      created.botshelf += count
      if (values.only !== 'botshelf') seconds.floor += await timedCreations(count, (i) => send(`${floor.url}/small-${base + i}.txt`, 'PUT', { 'content-type': 'text/plain' }, body).then(() => undefined))
      created.floor += count
      if (values.only !== 'botshelf') {
        seconds.wireFloor += await timedCreations(count, async (i) => {
          const answer = JSON.parse(await send(`${wireFloor.url}/meta/small-${base + i}.txt`, 'PUT', { 'content-type': 'application/json' }, JSON.stringify({ size }))) as { file: { uploadUrl: string } }
          await send(`${wireFloor.url}${answer.file.uploadUrl}`, 'PUT', { 'content-type': 'text/plain' }, body)
        })
        created.wireFloor += count
      }
      if (supabase) {
        seconds.supabase += await timedCreations(count, (i) =>
          send(`${supabase.url}/object/${supabase.bucket}/small/${base + i}.txt`, 'POST', { ...supabaseHeaders, 'content-type': 'text/plain', 'x-upsert': 'true' }, body).then(() => undefined),
        )
        created.supabase += count
      }
      process.stderr.write(`round ${round + 1}/${rounds}: ${JSON.stringify(seconds)}\n`)
    }
    for (const who of ['botshelf', 'floor', 'wireFloor'] as const) {
      const [start, end] = [cpuAtStart[who], cpuSeconds(pids[who])]
      if (start !== undefined && end !== undefined) cpuUsed[who] = end - start
    }
  } finally {
    agent.destroy()
    await serve.stop()
    await floor.stop()
    await wireFloor.stop()
    await rm(floorDir, { recursive: true, force: true })
    await rm(wireFloorDir, { recursive: true, force: true })
  }
  const rate = (who: keyof typeof seconds): number => created[who] / seconds[who]
  const peer = supabase ? rate('supabase') : RECORDED_SUPABASE_FILES_PER_SECOND
  const row = `creating ${files.toLocaleString('en-US')} files of ${size} B, ${concurrency} in flight`
  printRatio({ bench: 'small-files', row: `${row} vs Supabase Storage (${supabase ? 'same run' : 'recorded 420 files/s'})`, botshelf: rate('botshelf'), baseline: peer, unit: 'files/s', goal: 1.2 })
  printRatio({ bench: 'small-files', row: `${row} vs node:http + write + fsync + SQLite insert`, botshelf: rate('botshelf'), baseline: rate('floor'), unit: 'files/s' })
  printRatio({ bench: 'small-files', row: `${row} vs the wire's floor (two requests, botshelf's durability order)`, botshelf: rate('botshelf'), baseline: rate('wireFloor'), unit: 'files/s' })
  const load = os.loadavg().map((value) => value.toFixed(1)).join(' ')
  process.stdout.write(
    [
      '',
      `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${new Date().toISOString()}; load average ${load}`,
      '',
      '| who | files/s |',
      '|---|---:|',
      `| botshelf (upsertFile + content PUT) | ${rate('botshelf').toFixed(0)} |`,
      `| floor: node:http + write + fsync + SQLite insert (one PUT) | ${rate('floor').toFixed(0)} |`,
      `| the wire's floor: JSON upsert (row, commit) + content PUT (temp file, fsync, rename, folder fsync, row, commit) | ${rate('wireFloor').toFixed(0)} |`,
      `| the wire's floor / floor | ${(rate('wireFloor') / rate('floor')).toFixed(2)} |`,
      `| Supabase Storage ${supabase ? '(same run, one POST)' : '(recorded, issue 15)'} | ${peer.toFixed(0)} |`,
      '',
      ...(cpuUsed.botshelf !== undefined && cpuUsed.floor !== undefined
        ? [`Server CPU per file (user + system): botshelf ${((1000 * cpuUsed.botshelf) / created.botshelf).toFixed(2)} ms, floor ${((1000 * cpuUsed.floor) / Math.max(created.floor, 1)).toFixed(2)} ms, the wire's floor ${((1000 * (cpuUsed.wireFloor ?? 0)) / Math.max(created.wireFloor, 1)).toFixed(2)} ms`, '']
        : []),
    ].join('\n'),
  )
}

await main()
