import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../../src/client/index.js'
import { openSqliteBackend } from '../../server/src/store/open-backend.js'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'
import { runCliCaptured, spawnServe, type ServeProcess } from '../helpers/cli.js'
import { s3Environment, startS3TestServer, type S3TestServer } from '../helpers/s3-server.js'

// A dataset built through a real `botshelf serve` on embedded SQLite, exported, imported into PostgreSQL + S3
// (s3rver), served from there, exported again and imported into a fresh embedded folder: each time the same token
// works, files download byte for byte, rows keep their ids and search answers. A damaged archive is refused.
let root: string
let database: TestDatabase
let s3: S3TestServer
const savedEnv = { ...process.env }

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'botshelf-export-import-'))
  database = await createTestDatabase()
  s3 = await startS3TestServer({ buckets: ['content'] })
  Object.assign(process.env, s3Environment(s3))
})
afterAll(async () => {
  process.env = savedEnv
  await s3?.stop()
  await database?.drop()
  await rm(root, { recursive: true, force: true })
})

const binary = randomBytes(300_000)
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', 'x-zui': { searchable: true } },
    total: { type: 'number' },
    paid: { type: 'boolean' },
    due: { type: 'string', format: 'date-time' },
    address: { type: 'object', additionalProperties: true },
    items: { type: 'array', items: { type: 'string' } },
  },
  required: ['name'],
}

interface Expected {
  token: string
  botId: string
  files: Array<{ id: string; key: string; bytes: Buffer; tags: Record<string, string>; metadata: Record<string, unknown> }>
  tableId: string
  rows: unknown[]
}

function clientOf(serve: ServeProcess, token: string, botId: string): Client {
  return new Client({ apiUrl: serve.url, token, botId })
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
}

async function settled(client: Client, id: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const { file } = await client.getFile({ id })
    if (file.status !== 'indexing_pending' && file.status !== 'upload_pending') return file.status
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`file ${id} was never indexed`)
}

async function buildSource(dataDir: string): Promise<Expected> {
  const serve = await spawnServe(dataDir)
  try {
    const token = serve.token!
    const client = clientOf(serve, token, serve.botId)
    await client.uploadFile({ key: 'notes/plan.txt', content: 'first version', tags: { team: 'ops' }, metadata: { v: 1 } })
    const plan = (await client.uploadFile({ key: 'notes/plan.txt', content: 'second version, longer', tags: { team: 'ops', stage: 'final' }, metadata: { v: 2, by: { name: 'Ada' } } })).file
    const bin = (await client.uploadFile({ key: 'data/blob.bin', content: new Uint8Array(binary), contentType: 'application/octet-stream' })).file
    const doc = (await client.uploadFile({ key: 'kb/refunds.md', content: '# Refunds\n\nRefunds are paid within thirty days of the return.\n\n## Shipping\n\nParcels leave every morning.', index: true, tags: { kb: 'policies' } })).file
    expect(await settled(client, doc.id)).toBe('indexing_completed')
    expect((await client.searchFiles({ query: 'refunds thirty days' })).passages.length).toBeGreaterThan(0)

    const { table } = await client.createTable({ name: 'ordersTable', schema })
    await client.createTableRows({
      table: 'ordersTable',
      rows: [
        { name: 'Ada', total: 12.5, paid: true, due: '2026-05-01T10:00:00.000Z', address: { city: 'London' }, items: ['pen', 'ink'] },
        { name: 'Alan', total: 3, paid: false },
        { name: 'Grace', total: 40, due: '2026-06-01T00:00:00.000Z', items: [] },
      ],
    })
    await client.deleteTableRows({ table: 'ordersTable', ids: [2] })
    await client.updateTableRows({ table: 'ordersTable', rows: [{ id: 3, paid: true }] })
    const rows = (await client.findTableRows({ table: 'ordersTable', orderBy: 'id' })).rows
    expect(rows.map((row) => row.id)).toEqual([1, 3])

    const viewer = await runCliCaptured(['token', 'create', '--data', dataDir, '--role', 'viewer', '--bot', serve.botId])
    expect(viewer.code).toBe(0)
    const files = [
      { id: plan.id, key: plan.key, bytes: Buffer.from('second version, longer'), tags: plan.tags, metadata: plan.metadata },
      { id: bin.id, key: bin.key, bytes: binary, tags: bin.tags, metadata: bin.metadata },
      { id: doc.id, key: doc.key, bytes: Buffer.from('# Refunds\n\nRefunds are paid within thirty days of the return.\n\n## Shipping\n\nParcels leave every morning.'), tags: doc.tags, metadata: doc.metadata },
    ]
    return { token, botId: serve.botId, files, tableId: table.id, rows }
  } finally {
    await stop(serve)
  }
}

/** The target answers as the source did: same token, files byte for byte, rows with their ids, search. */
async function expectSameDataset(serve: ServeProcess, expected: Expected): Promise<void> {
  expect(serve.token).toBeUndefined()
  expect(serve.botId).toBe(expected.botId)
  const client = clientOf(serve, expected.token, expected.botId)
  for (const file of expected.files) {
    const { file: found } = await client.getFile({ id: file.id })
    expect(found).toMatchObject({ key: file.key, tags: file.tags, metadata: file.metadata, size: file.bytes.length })
    const download = await fetch(found.url)
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer()).equals(file.bytes)).toBe(true)
  }
  const listed = await client.listFiles({ tags: { team: 'ops' } })
  expect(listed.files.map((file) => file.key)).toEqual(['notes/plan.txt'])
  expect((await client.findTableRows({ table: expected.tableId, orderBy: 'id' })).rows).toEqual(expected.rows)
  expect((await client.getTableRow({ table: 'ordersTable', id: 3 })).row).toMatchObject({ name: 'Grace', paid: true })
  const created = await client.createTableRows({ table: 'ordersTable', rows: [{ name: 'Linus' }] })
  expect(created.rows[0]!.id).toBe(4)
  await client.deleteTableRows({ table: 'ordersTable', ids: [4] })
  const { passages } = await client.searchFiles({ query: 'refunds thirty days' })
  expect(passages[0]?.content).toContain('thirty days')
  expect(passages[0]?.file.id).toBe(expected.files[2]!.id)
}

describe('botshelf export / import', () => {
  let expected: Expected
  const source = () => join(root, 'source')
  const archive = () => join(root, 'archive-embedded')

  it('moves an embedded dataset into PostgreSQL + S3 and serves it from there', async () => {
    expected = await buildSource(source())
    const exported = await runCliCaptured(['export', '--data', source(), '--out', archive()])
    expect(exported.stderr).toContain('exported')
    expect(exported.code).toBe(0)
    const manifest = JSON.parse(await readFile(join(archive(), 'manifest.json'), 'utf8'))
    expect(manifest).toMatchObject({ format: 'botshelf-dataset', version: 1, totals: { tables: 1, rows: 2, blobs: 3 } })
    expect(manifest.parts.find((part: { path: string }) => part.path === 'parts/tokens.jsonl').records).toBe(2)
    // Token secrets are never in the archive: only their hashes.
    expect(await readFile(join(archive(), 'parts/tokens.jsonl'), 'utf8')).not.toContain(expected.token)

    const pgFlags = ['--database', database.url, '--blobs', 's3://content/moved']
    const imported = await runCliCaptured(['import', '--from', archive(), '--data', join(root, 'pg-data'), ...pgFlags])
    expect(imported.stderr).toContain('every checksum matched')
    expect(imported.code).toBe(0)
    const again = await runCliCaptured(['import', '--from', archive(), '--data', join(root, 'pg-data'), ...pgFlags])
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('the target dataset is not empty')])

    const serve = await spawnServe(join(root, 'pg-data'), pgFlags)
    try {
      await expectSameDataset(serve, expected)
    } finally {
      await stop(serve)
    }
    // The content went to the bucket: the data folder was never needed.
    expect(await readdir(join(root, 'pg-data')).catch(() => [])).toEqual([])
    const stored = (await readdir(join(s3.directory, 'content', 'moved'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())
    expect(stored.length).toBeGreaterThanOrEqual(3)
  })

  it('moves it back from PostgreSQL + S3 into a fresh embedded folder', async () => {
    const fromPg = join(root, 'archive-pg')
    const exported = await runCliCaptured(['export', '--out', fromPg, '--data', join(root, 'pg-data'), '--database', database.url, '--blobs', 's3://content/moved'])
    expect(exported.code).toBe(0)
    const imported = await runCliCaptured(['import', '--from', fromPg, '--data', join(root, 'embedded-again')])
    expect(imported.code).toBe(0)
    const serve = await spawnServe(join(root, 'embedded-again'))
    try {
      await expectSameDataset(serve, expected)
    } finally {
      await stop(serve)
    }
  })

  it('refuses an archive with one byte flipped in a blob, naming it, and leaves the target empty', async () => {
    const damaged = join(root, 'archive-damaged')
    await cp(archive(), damaged, { recursive: true })
    const [blob] = (await readdir(join(damaged, 'blobs'))).sort()
    const bytes = await readFile(join(damaged, 'blobs', blob!))
    const middle = Math.floor(bytes.length / 2)
    bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle)
    await writeFile(join(damaged, 'blobs', blob!), bytes)
    const target = join(root, 'embedded-damaged')
    const result = await runCliCaptured(['import', '--from', damaged, '--data', target])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`blobs/${blob}: does not match the manifest`)
    const backend = await openSqliteBackend({ dataDir: target })
    try {
      expect(await backend.dataset.isEmpty()).toBe(true)
    } finally {
      await backend.close()
    }
    expect((await readdir(join(target, 'content'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())).toEqual([])
  })

  it('refuses a data part that does not match the manifest, naming the part', async () => {
    const damaged = join(root, 'archive-damaged-part')
    await cp(archive(), damaged, { recursive: true })
    const path = join(damaged, 'parts', 'bots.jsonl')
    await writeFile(path, (await readFile(path, 'utf8')).replace('"name":"', '"name":"x'))
    const result = await runCliCaptured(['import', '--from', damaged, '--data', join(root, 'embedded-damaged-part')])
    expect([result.code, result.stderr]).toEqual([1, expect.stringContaining('parts/bots.jsonl: does not match the manifest')])
  })
})

describe('botshelf import and Ctrl-C', () => {
  it('stops on SIGINT while copying content, exits 130 and leaves the target empty', async () => {
    // A source with one 64 MB file: the content phase lasts long enough to be interrupted in the middle.
    const sourceDir = join(root, 'big-source')
    const backend = await openSqliteBackend({ dataDir: sourceDir })
    const botId = (await backend.auth.createBot({ name: 'big' })).id
    const size = 64 << 20
    const { file } = await backend.files.upsert({ botId, key: 'big.bin', ownerScope: '', owner: { type: 'bot', id: botId }, size, contentType: 'application/octet-stream', tags: {}, metadata: {}, accessPolicies: [], index: false, expiresAt: null })
    const chunk = randomBytes(1 << 20)
    const blob = await backend.blobs.write((async function* () {
      for (let i = 0; i < 64; i++) yield chunk
    })())
    await backend.files.completeUpload(file.id, file.version, blob)
    await backend.close()
    const bigArchive = join(root, 'big-archive')
    expect((await runCliCaptured(['export', '--data', sourceDir, '--out', bigArchive])).code).toBe(0)

    const target = join(root, 'big-target')
    const bin = fileURLToPath(new URL('../../server/src/cli/bin.ts', import.meta.url))
    const child = spawn(process.execPath, ['--import', 'tsx', bin, 'import', '--from', bigArchive, '--data', target], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: 'pipe' })
    let stderr = ''
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString()
      // Plain progress lines (no terminal): the first one of the content phase is at 10%.
      if (/import content: \d+%/.test(stderr) && !child.killed) child.kill('SIGINT')
    })
    expect(await exited).toBe(130)
    expect(stderr).toContain('interrupted')
    expect(stderr).not.toContain('every checksum matched')
    const opened = await openSqliteBackend({ dataDir: target })
    try {
      expect(await opened.dataset.isEmpty()).toBe(true)
    } finally {
      await opened.close()
    }
    expect((await readdir(join(target, 'content'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile())).toEqual([])
  })
})
