import { spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expectOk, freePort, rssOfPid, spawnWatched, until, type PeerService, type WatchedChild } from './service.js'

/** The peer: the newest Directus release that runs on Node 20. */
export const DIRECTUS_VERSION = '11.3.5'

/** Where the peer is installed, git-ignored and outside the project's dependencies. */
export const peerFolder = fileURLToPath(new URL('../.peer/', import.meta.url))

const TOKEN = 'bench-admin-token-0123456789'

/** Children still running when the bench exits (a failed measure included) are killed with it. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Installs Directus from the npm registry into `bench/.peer/` unless it is there already (its own `package.json`,
 * not the project's). Throws with npm's output when the install fails.
 *
 * @example
 * ```ts
 * installDirectus((line) => process.stderr.write(line))
 * ```
 */
export function installDirectus(log: (line: string) => void): void {
  const cli = join(peerFolder, 'node_modules/@directus/api/dist/cli/run.js')
  // npm writes its hidden lock file last: without it an earlier install was cut short.
  if (existsSync(cli) && existsSync(join(peerFolder, 'node_modules/.package-lock.json'))) return
  mkdirSync(peerFolder, { recursive: true })
  writeFileSync(join(peerFolder, 'package.json'), `${JSON.stringify({ name: 'botshelf-bench-peer', private: true, version: '0.0.0' }, null, 2)}\n`)
  log(`installing directus@${DIRECTUS_VERSION} into ${peerFolder} (first run only; a few minutes)\n`)
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `directus@${DIRECTUS_VERSION}`], { cwd: peerFolder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (result.status !== 0 || !existsSync(cli)) throw new Error(`npm install directus@${DIRECTUS_VERSION} failed (status ${result.status}):\n${result.stderr}\n${result.stdout}`)
}

/**
 * Directus on SQLite in a child process, started through `@directus/api`'s CLI directly (the `directus` wrapper
 * checks for updates on the network first), with telemetry, caches and rate limits off and the admin's static
 * token set at bootstrap. The data folder (database, uploads) is kept between starts.
 *
 * @example
 * ```ts
 * const peer = directusService({ dataDir: '/tmp/bench/directus' })
 * await peer.start()
 * await peer.upload('a.txt', new Uint8Array(4096))
 * await peer.stop()
 * ```
 */
export function directusService(options: { dataDir: string }): PeerService {
  const cli = join(peerFolder, 'node_modules/@directus/api/dist/cli/run.js')
  let child: ChildProcess | undefined
  let watched: WatchedChild | undefined
  const output = (): string => watched?.output() ?? ''
  let url = ''
  const headers = { authorization: `Bearer ${TOKEN}` }
  const json = { ...headers, 'content-type': 'application/json' }
  const env = (port: number): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    KEY: 'bench-key',
    SECRET: 'bench-secret-bench-secret-bench-secret',
    DB_CLIENT: 'sqlite3',
    DB_FILENAME: join(options.dataDir, 'data.db'),
    STORAGE_LOCATIONS: 'local',
    STORAGE_LOCAL_ROOT: join(options.dataDir, 'uploads'),
    EXTENSIONS_PATH: join(options.dataDir, 'extensions'),
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password',
    ADMIN_TOKEN: TOKEN,
    TELEMETRY: 'false',
    CACHE_ENABLED: 'false',
    CACHE_SCHEMA: 'true',
    RATE_LIMITER_ENABLED: 'false',
    RATE_LIMITER_GLOBAL_ENABLED: 'false',
    // Its load shedding answers 503 on a machine as busy as the bench makes it; botshelf sheds no load either.
    PRESSURE_LIMITER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    LOG_STYLE: 'raw',
    WEBSOCKETS_ENABLED: 'false',
    QUERY_LIMIT_MAX: '-1',
    MAX_PAYLOAD_SIZE: '10mb',
    NODE_ENV: 'production',
  })

  return {
    name: `Directus ${DIRECTUS_VERSION}`,
    async start() {
      const port = await freePort()
      mkdirSync(join(options.dataDir, 'uploads'), { recursive: true })
      mkdirSync(join(options.dataDir, 'extensions'), { recursive: true })
      // Directus looks for extensions in its working folder's package.json.
      if (!existsSync(join(options.dataDir, 'package.json'))) writeFileSync(join(options.dataDir, 'package.json'), '{ "name": "directus-bench-data", "private": true }\n')
      if (!existsSync(join(options.dataDir, 'data.db'))) {
        const boot = spawnSync(process.execPath, [cli, 'bootstrap'], { cwd: options.dataDir, env: env(port), encoding: 'utf8' })
        if (boot.status !== 0) throw new Error(`directus bootstrap failed (status ${boot.status}):\n${boot.stderr}\n${boot.stdout}`)
      }
      watched = spawnWatched(process.execPath, [cli, 'start'], { cwd: options.dataDir, env: env(port) }, running)
      child = watched.process
      url = `http://127.0.0.1:${port}`
      await until(
        async () => {
          if (child!.exitCode !== null) throw new Error(`directus exited: ${output()}`)
          const ping = await fetch(`${url}/server/ping`)
          if (!ping.ok) throw new Error(`ping: HTTP ${ping.status}`)
          await ping.text()
        },
        180_000,
        output,
      )
    },
    async firstAnswer() {
      await expectOk(await fetch(`${url}/files?limit=1`, { headers }), 'files')
    },
    async stop() {
      if (!child || child.exitCode !== null) return
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.kill('SIGTERM')
      const force = setTimeout(() => child!.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(force)
    },
    rss: () => rssOfPid(child!.pid!),
    async upload(key, bytes) {
      const form = new FormData()
      form.append('file', new Blob([bytes]), key)
      const body = (await expectOk(await fetch(`${url}/files`, { method: 'POST', headers, body: form }), 'upload')) as { data: { id: string } }
      return body.data.id
    },
    async download(id) {
      const response = await fetch(`${url}/assets/${id}`, { headers })
      if (!response.ok) throw new Error(`download: HTTP ${response.status}`)
      return (await response.arrayBuffer()).byteLength
    },
    async listFirst100() {
      const body = (await expectOk(await fetch(`${url}/files?limit=100`, { headers }), 'files')) as { data: unknown[] }
      return body.data.length
    },
    async createTable(name) {
      const fields = [
        { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
        { field: 'cat', type: 'string', schema: {} },
        { field: 'n', type: 'float', schema: {} },
        { field: 'name', type: 'string', schema: {} },
      ]
      await expectOk(await fetch(`${url}/collections`, { method: 'POST', headers: json, body: JSON.stringify({ collection: name, schema: {}, meta: {}, fields }) }), 'create collection')
    },
    async insertRows(table, rows) {
      await expectOk(await fetch(`${url}/items/${table}?fields=id`, { method: 'POST', headers: json, body: JSON.stringify(rows) }), 'create items')
    },
    async findByN(table, n) {
      const filter = encodeURIComponent(JSON.stringify({ n: { _eq: n } }))
      const body = (await expectOk(await fetch(`${url}/items/${table}?filter=${filter}&limit=100`, { headers }), 'find')) as { data: unknown[] }
      return body.data.length
    },
    async countByCat(table) {
      const body = (await expectOk(await fetch(`${url}/items/${table}?aggregate[count]=*&groupBy[]=cat&limit=-1`, { headers }), 'group')) as { data: unknown[] }
      return body.data.length
    },
    async countAll(table) {
      const body = (await expectOk(await fetch(`${url}/items/${table}?aggregate[count]=*`, { headers }), 'count')) as { data: Array<{ count: number | string }> }
      return Number(body.data[0]?.count)
    },
  }
}
