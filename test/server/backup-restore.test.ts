import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../helpers/eventually.js'
import { Client } from '../../src/client/index.js'
import { restoreBackup, takeBackup, type BackupResult, type BackupSource } from '../../server/src/backup/index.js'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { openPostgresBackend, openSqliteSnapshot } from '../../server/src/store/open-backend.js'
import type { PostgresBackend } from '../../server/src/store/postgres/backend.js'
import type { Backend } from '../../server/src/store/index.js'
import { testBackends } from '../helpers/backends.js'
import { runCliCaptured } from '../helpers/cli.js'
import { startTestService, type TestService } from '../helpers/service.js'

// Decision 1442: a backup taken while about 50 writes a second land restores to a service that answers every write
// acknowledged before the backup began, byte for byte; a later backup into the same folder copies only new content.
// On SQLite through `botshelf backup` / `botshelf restore`; on PostgreSQL through the same functions with a second
// backend on the service's schema (the test database has one schema per backend, which the CLI's URL cannot name).

interface Written {
  key: string
  content: string
  ackedAt: number
}

let service: TestService
let root: string
const opened: Array<{ close(): Promise<void> }> = []

beforeAll(async () => {
  service = await startTestService({ listen: true })
  root = await mkdtemp(join(tmpdir(), 'botshelf-backup-'))
})
afterAll(async () => {
  for (const item of opened.reverse()) await item.close()
  await service?.close()
  if (root) await rm(root, { recursive: true, force: true })
})

const client = (): Client => new Client({ apiUrl: service.url, token: service.tokens.bot, botId: service.botId })

/** Writes files one after another at about `perSecond`, until stopped; returns each acknowledged write. */
function startWriter(perSecond: number, prefix: string): { acknowledged(): number; stop(): Promise<Written[]> } {
  const written: Written[] = []
  let running = true
  const bot = client()
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const began = performance.now()
      const key = `${prefix}/${i}.txt`
      const content = `${prefix} write ${i} ${'x'.repeat(i % 7)}`
      await bot.uploadFile({ key, content })
      written.push({ key, content, ackedAt: performance.now() })
      // The pace is what is tested (a backup taken while ~50 writes/s come in): a real wait, not a fake one.
      const wait = 1000 / perSecond - (performance.now() - began)
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    }
  })()
  return {
    acknowledged: () => written.length,
    async stop() {
      running = false
      await loop
      return written
    },
  }
}

async function backupNow(out: string): Promise<BackupResult> {
  if (service.backendName === 'postgres') {
    const live = service.backend as PostgresBackend
    // A second backend on the same schema, as `botshelf backup --database` opens one beside the servers.
    const backend = await openPostgresBackend({ url: live.url, schema: live.schema, dataDir: service.dataDir, poolSize: 2, migrate: false })
    try {
      const source: BackupSource = { describe: 'postgres', blobs: backend.blobs, openSnapshot: async () => ({ backend, release: async () => undefined }) }
      return await takeBackup(source, out)
    } finally {
      await backend.close()
    }
  }
  const { code, stdout, stderr } = await runCliCaptured(['backup', '--data', service.dataDir, '--out', out])
  expect(stderr).toMatch(/blobs copied/)
  expect(code).toBe(0)
  const copied = /(\d+) blobs copied \(.*?\), (\d+) already in the folder/.exec(stderr)!
  const { readManifest } = await import('../../server/src/dataset/index.js')
  const snapshot = stdout.trim()
  return { snapshot, manifest: await readManifest(snapshot), copied: { blobs: Number(copied[1]), bytes: -1 }, reused: Number(copied[2]), retries: 0 }
}

/** Restores the latest snapshot of `from` into a new, empty dataset of the service's engine and serves it in process. */
async function restoreAndServe(from: string): Promise<BotshelfApp> {
  const dataDir = await mkdtemp(join(root, 'restored-'))
  let backend: Backend
  if (service.backendName === 'postgres') {
    backend = await testBackends.postgres({ dataDir })
    await restoreBackup(backend, from)
  } else {
    const { code, stderr } = await runCliCaptured(['restore', '--from', from, '--data', dataDir])
    expect(stderr).toMatch(/every checksum matched/)
    expect(code).toBe(0)
    backend = await testBackends.sqlite({ dataDir })
  }
  opened.push(backend)
  const app = await createApp({ backend, logger: silentLogger, rateLimit: false })
  opened.push(app)
  return app
}

async function readBack(app: BotshelfApp, key: string): Promise<string | undefined> {
  const restored = new Client({ apiUrl: 'http://restored', token: service.tokens.bot, botId: service.botId, fetch: (request: Request) => app.fetch(request) })
  try {
    const { response } = await restored.downloadFile({ id: key })
    return await response.text()
  } catch {
    return undefined
  }
}

describe('botshelf backup while serving, botshelf restore into an empty dataset', () => {
  it('restores every write acknowledged before the backup began, byte for byte, from a backup taken during ~50 writes/s', { timeout: 120_000 }, async () => {
    const out = join(root, 'backups')
    const bot = client()
    for (let i = 0; i < 20; i++) await bot.uploadFile({ key: `before/${i}.bin`, content: `content of file ${i} `.repeat(200 + i) })
    await bot.createTable({ name: 'ordersTable', schema: { type: 'object', properties: { item: { type: 'string' } } } })
    await bot.createTableRows({ table: 'ordersTable', rows: [{ item: 'tea' }, { item: 'bread' }] })
    const writer = startWriter(50, 'during')
    // The backup begins once some writes are in, whatever the machine's speed.
    await eventually(async () => (writer.acknowledged() >= 10 ? true : undefined), 'ten writes acknowledged')
    const began = performance.now()
    const first = await backupNow(out)
    const written = await writer.stop()
    const acknowledgedBefore = written.filter((write) => write.ackedAt < began)
    expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(10)
    // Writes went on while the backup ran.
    expect(written.some((write) => write.ackedAt > began)).toBe(true)

    const app = await restoreAndServe(out)
    for (const write of acknowledgedBefore) expect(await readBack(app, write.key), write.key).toBe(write.content)
    for (let i = 0; i < 20; i++) expect(await readBack(app, `before/${i}.bin`)).toBe(`content of file ${i} `.repeat(200 + i))
    const restored = new Client({ apiUrl: 'http://restored', token: service.tokens.bot, botId: service.botId, fetch: (request: Request) => app.fetch(request) })
    const { rows } = await restored.findTableRows({ table: 'ordersTable' })
    expect(rows.map((row) => row['item'])).toEqual(['tea', 'bread'])
    expect(first.manifest.contentFolder).toBe('../../content')

    // Incremental: a backup into the same folder copies only content it does not hold yet.
    await backupNow(out)
    for (let i = 0; i < 3; i++) await bot.uploadFile({ key: `after/${i}.txt`, content: `new content ${i}` })
    const contentBefore = (await readdir(join(out, 'content'))).length
    const third = await backupNow(out)
    expect(third.copied.blobs).toBe(3)
    expect(third.reused).toBe(contentBefore)
    expect((await readdir(join(out, 'content'))).length).toBe(contentBefore + 3)
    expect((await readdir(join(out, 'snapshots'))).length).toBe(3)

    // A damaged content file is found at restore (its sha256), and the target stays empty.
    const damaged = (await readdir(join(out, 'content'))).find((name) => /^[0-9a-f]{64}$/.test(name))!
    const bytes = await readFile(join(out, 'content', damaged))
    bytes[0] = bytes[0]! ^ 1
    await writeFile(join(out, 'content', damaged), bytes)
    const target = await testBackends['sqlite-memory']({ dataDir: root })
    opened.push(target)
    await expect(restoreBackup(target, out)).rejects.toThrow(`../../content/${damaged}: does not match the manifest`)
    expect(await target.dataset.isEmpty()).toBe(true)
  })
})
