import type { ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { expectOk, freePort, rssOfPid, spawnWatched, until, type PeerService, type WatchedChild } from './service.js'
import { builtCommand } from '../support/serve-process.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Children still running when the bench exits (a failed measure included) are killed with it. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** Options of {@link botshelfService}. */
export interface BotshelfServiceOptions {
  /** The data folder, kept between starts, e.g. `'/tmp/bench/botshelf'`. */
  dataDir: string
  /** The checkout whose built CLI runs (default: this one), e.g. `'/work/main'` for a same-run baseline. */
  checkout?: string
  /** A name for the table (default `botshelf`). */
  name?: string
  /** The bot id and token of a data folder another start made, e.g. `other.credentials()`. */
  credentials?: { botId: string; token: string }
}

/**
 * `botshelf serve` (the built command, `server/dist/bundle/bin.js`; run `npm run build` first) in a child process on a data
 * folder it keeps between starts; the bot id and token come from the first start's banner.
 *
 * @example
 * ```ts
 * const service = botshelfService({ dataDir: '/tmp/bench/botshelf' })
 * await service.start()
 * await service.upload('a.txt', new Uint8Array(4096))
 * await service.stop()
 * ```
 */
export function botshelfService(options: BotshelfServiceOptions): PeerService & { url(): string; auth(): Record<string, string>; credentials(): { botId: string; token: string } } {
  const checkout = options.checkout ?? root
  let child: ChildProcess | undefined
  let watched: WatchedChild | undefined
  const output = (): string => watched?.output() ?? ''
  let url = ''
  let botId = options.credentials?.botId ?? ''
  let token = options.credentials?.token ?? ''
  const headers = (): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-bot-id': botId })
  const json = (): Record<string, string> => ({ ...headers(), 'content-type': 'application/json' })

  return {
    name: options.name ?? 'botshelf',
    url: () => url,
    auth: headers,
    credentials: () => ({ botId, token }),
    async start() {
      const port = await freePort()
      watched = spawnWatched(process.execPath, [join(checkout, builtCommand(checkout)), 'serve', '--port', String(port), '--data', options.dataDir, '--rate-limit', 'off', '--log-level', 'warn'], { cwd: checkout }, running)
      child = watched.process
      await until(
        async () => {
          if (child!.exitCode !== null) throw new Error(`botshelf serve exited: ${output()}`)
          if (!/listening on http/.test(output())) throw new Error('not listening yet')
        },
        120_000,
        output,
      )
      url = `http://127.0.0.1:${port}`
      const banner = /bot id:\s+(\S+)\s+bot token:\s+(\S+)/.exec(output())
      if (banner) [botId, token] = [banner[1]!, banner[2]!]
      if (!token) throw new Error(`no token: start botshelf on a fresh data folder first\n${output()}`)
    },
    async firstAnswer() {
      await expectOk(await fetch(`${url}/v1/files?pageSize=1`, { headers: headers() }), 'listFiles')
    },
    async stop() {
      if (!child || child.exitCode !== null) return
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
    rss: () => rssOfPid(child!.pid!),
    async upload(key, bytes) {
      const body = (await expectOk(await fetch(`${url}/v1/files`, { method: 'PUT', headers: json(), body: JSON.stringify({ key, size: bytes.byteLength }) }), 'upsertFile')) as {
        file: { id: string; uploadUrl: string }
      }
      await expectOk(await fetch(body.file.uploadUrl, { method: 'PUT', body: bytes }), 'upload content')
      return body.file.id
    },
    async download(id) {
      const { file } = (await expectOk(await fetch(`${url}/v1/files/${encodeURIComponent(id)}`, { headers: headers() }), 'getFile')) as { file: { url: string } }
      const response = await fetch(file.url)
      if (!response.ok) throw new Error(`download: HTTP ${response.status}`)
      return (await response.arrayBuffer()).byteLength
    },
    async listFirst100() {
      const body = (await expectOk(await fetch(`${url}/v1/files?pageSize=100`, { headers: headers() }), 'listFiles')) as { files: unknown[] }
      return body.files.length
    },
    async createTable(name) {
      const schema = { type: 'object', properties: { cat: { type: 'string' }, n: { type: 'number' }, name: { type: 'string' } } }
      await expectOk(await fetch(`${url}/v1/tables`, { method: 'POST', headers: json(), body: JSON.stringify({ name, schema }) }), 'createTable')
    },
    async insertRows(table, rows) {
      await expectOk(await fetch(`${url}/v1/tables/${table}/rows`, { method: 'POST', headers: json(), body: JSON.stringify({ rows }) }), 'createTableRows')
    },
    async findByN(table, n) {
      const body = (await expectOk(
        await fetch(`${url}/v1/tables/${table}/rows/find`, { method: 'POST', headers: json(), body: JSON.stringify({ filter: { n: { $eq: n } }, limit: 100 }) }),
        'findTableRows',
      )) as { rows: unknown[] }
      return body.rows.length
    },
    async countByCat(table) {
      const body = (await expectOk(
        await fetch(`${url}/v1/tables/${table}/rows/find`, { method: 'POST', headers: json(), body: JSON.stringify({ group: { cat: 'key', id: 'count' }, limit: 1000 }) }),
        'findTableRows group',
      )) as { rows: unknown[] }
      return body.rows.length
    },
    async countAll(table) {
      const body = (await expectOk(
        await fetch(`${url}/v1/tables/${table}/rows/find`, { method: 'POST', headers: json(), body: JSON.stringify({ group: { id: 'count' } }) }),
        'findTableRows count',
      )) as { rows: Array<Record<string, unknown>> }
      const first = body.rows[0] ?? {}
      return Number(Object.values(first).find((value) => typeof value === 'number') ?? Number.NaN)
    },
  }
}
