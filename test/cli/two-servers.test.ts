import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'
import { runCliCaptured, spawnServe, type ServeProcess } from '../helpers/cli.js'
import { s3Environment, startS3TestServer, type S3TestServer } from '../helpers/s3-server.js'

// Two real `botshelf serve` processes on one PostgreSQL database (made for this file, dropped after) and one
// S3-compatible bucket (a real s3rver child process): one dataset, any server answers.
let database: TestDatabase
let s3: S3TestServer
let dataDir: string
const savedEnv = { ...process.env }
beforeAll(async () => {
  database = await createTestDatabase()
  s3 = await startS3TestServer({ buckets: ['content'] })
  dataDir = await mkdtemp(join(tmpdir(), 'botshelf-two-servers-'))
  // The servers inherit the environment: the S3 endpoint and credentials, as an operator would set them.
  Object.assign(process.env, s3Environment(s3))
})
afterAll(async () => {
  process.env = savedEnv
  await s3?.stop()
  await database?.drop()
  await rm(dataDir, { recursive: true, force: true })
})

interface Caller {
  token: string
  botId: string
}

async function call(server: ServeProcess, caller: Caller, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${caller.token}`, 'x-bot-id': caller.botId, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : undefined }
}

async function upload(server: ServeProcess, caller: Caller, key: string, content: string): Promise<string> {
  const upsert = await call(server, caller, 'PUT', '/v1/files', { key, size: Buffer.byteLength(content) })
  expect(upsert.status).toBe(200)
  const put = await fetch(upsert.json.file.uploadUrl, { method: 'PUT', body: content })
  expect(put.status).toBe(200)
  return upsert.json.file.id as string
}

/** Uploads a file with `index: true` (and any other upsert fields); the id once its content upload was acknowledged. */
async function uploadWith(server: ServeProcess, caller: Caller, key: string, content: string, fields: Record<string, unknown>): Promise<string> {
  const upsert = await call(server, caller, 'PUT', '/v1/files', { key, size: Buffer.byteLength(content), ...fields })
  expect(upsert.status, JSON.stringify(upsert.json)).toBe(200)
  const put = await fetch(upsert.json.file.uploadUrl, { method: 'PUT', body: content })
  expect(put.status).toBe(200)
  return upsert.json.file.id as string
}

/** Polls `check` every 50 ms until it returns true; fails naming `what` after `ms`. */
async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A Markdown document of `sections` sections of varied prose: enough text for indexing to take a moment. */
function markdown(seed: number, sections: number): string {
  const words = ['okapi', 'forest', 'river', 'lantern', 'granite', 'harbour', 'meadow', 'copper', 'willow', 'falcon', 'summit', 'ember']
  const parts = [`# Notes ${seed}`]
  for (let section = 0; section < sections; section++) {
    parts.push(`## Section ${section}`)
    const sentence = Array.from({ length: 40 }, (_, i) => words[(seed * 7 + section * 3 + i * 5) % words.length]).join(' ')
    parts.push(`${sentence}. Item ${seed}-${section} is recorded here.`)
  }
  return parts.join('\n\n')
}

/** The lines `msg` of a server's JSON log (its standard output). */
function logLines(server: ServeProcess, msg: string): Array<Record<string, any>> {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((line) => line['msg'] === msg)
}

interface JobRow {
  seq: number
  id: string
  kind: string
  state: string
  attempts: number
  run_at: string
}

async function jobsAfter(seq: number): Promise<JobRow[]> {
  return database.admin<JobRow[]>`SELECT seq, id, kind, state, attempts, run_at FROM queue_jobs WHERE seq > ${seq} ORDER BY seq`
}

async function lastJobSeq(): Promise<number> {
  const [row] = await database.admin<Array<{ seq: number | null }>>`SELECT max(seq)::int AS seq FROM queue_jobs`
  return row?.seq ?? 0
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
}

async function filesUnder(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name)
}

describe('two botshelf servers on one PostgreSQL database and one S3 bucket', () => {
  it('refuses a blobs URL that is not s3:// as a usage error naming --blobs', async () => {
    const result = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--database', database.url, '--blobs', 'http://content'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--blobs')
  })

  it('uploads through one and downloads through the other, and a cursor of one pages on through the other; content lives in S3 only', async () => {
    const flags = ['--database', database.url, '--blobs', 's3://content/botshelf']
    const [a, b] = await Promise.all([spawnServe(dataDir, flags), spawnServe(dataDir, flags)])
    try {
      const token = a.token ?? b.token
      expect(token).toBeDefined()
      expect(a.stderr()).toContain('file content in s3://content/botshelf')
      const caller = { token: token!, botId: a.botId }

      // Uploads through both servers at once, each read back through the other one.
      const contents = Array.from({ length: 6 }, (_, index) => `content of file ${index} `.repeat(100 + index))
      const ids = await Promise.all(contents.map((content, index) => upload(index % 2 === 0 ? a : b, caller, `docs/${index}.txt`, content)))
      for (const [index, id] of ids.entries()) {
        const other = index % 2 === 0 ? b : a
        const got = await call(other, caller, 'GET', `/v1/files/${id}`)
        expect(got.json.file.status).toBe('upload_completed')
        const download = await fetch(got.json.file.url)
        expect(await download.text()).toBe(contents[index])
      }

      // A cursor signed by one server is accepted by the other (one signing key, in the database).
      const keys: string[] = []
      let nextToken: string | undefined
      let page = 0
      do {
        const server = page % 2 === 0 ? a : b
        const query = `?pageSize=2&sortField=key&sortDirection=asc${nextToken ? `&nextToken=${encodeURIComponent(nextToken)}` : ''}`
        const listed = await call(server, caller, 'GET', `/v1/files${query}`)
        expect(listed.status).toBe(200)
        keys.push(...(listed.json.files as Array<{ key: string }>).map((file) => file.key))
        nextToken = listed.json.meta.nextToken
        page++
      } while (nextToken)
      expect(keys).toEqual(contents.map((_, index) => `docs/${index}.txt`))
      expect(page).toBe(3)

      // The bytes went to the bucket under the prefix, none to the data folder.
      expect((await filesUnder(join(s3.directory, 'content'))).length).toBeGreaterThanOrEqual(contents.length)
      const local = await readdir(join(dataDir, 'content'), { recursive: true, withFileTypes: true }).catch(() => [])
      expect(local.filter((entry) => entry.isFile())).toEqual([])
    } finally {
      await Promise.all([stop(a), stop(b)])
    }
  })

  it('SIGKILL of one server during uploads loses no acknowledged write and leaves no visible partial file', async () => {
    const flags = ['--database', database.url, '--blobs', 's3://content/botshelf']
    const [a, b] = await Promise.all([spawnServe(dataDir, flags), spawnServe(dataDir, flags)])
    try {
      const token = (await runCliCaptured(['token', 'create', '--database', database.url, '--role', 'developer'])).stdout.trim()
      const caller = { token, botId: a.botId }
      const content = (index: number) => `killed-${index} `.repeat(40_000)
      const acknowledged: Array<{ id: string; index: number }> = []
      const started = Array.from({ length: 12 }, async (_, index) => {
        const id = await upload(a, caller, `killed/${index}.txt`, content(index))
        acknowledged.push({ id, index })
      })
      // Kill as soon as some uploads were acknowledged, others still in flight.
      while (acknowledged.length < 3) await new Promise((resolve) => setTimeout(resolve, 5))
      a.child.kill('SIGKILL')
      await Promise.allSettled(started)
      expect(await a.exited).toBe('SIGKILL')

      for (const { id, index } of acknowledged) {
        const got = await call(b, caller, 'GET', `/v1/files/${id}`)
        expect(got.json.file.status).toBe('upload_completed')
        expect(await (await fetch(got.json.file.url)).text()).toBe(content(index))
      }
      // Whatever the other server lists as complete is complete; the rest is pending, never half readable.
      const listed = await call(b, caller, 'GET', '/v1/files?pageSize=100')
      const killed = (listed.json.files as Array<{ key: string; status: string; url: string }>).filter((file) => file.key.startsWith('killed/'))
      for (const file of killed) {
        const index = Number(/killed\/(\d+)/.exec(file.key)![1])
        if (file.status === 'upload_completed') expect(await (await fetch(file.url)).text()).toBe(content(index))
        else expect(file.status).toBe('upload_pending')
      }
      expect(killed.filter((file) => file.status === 'upload_completed').length).toBeGreaterThanOrEqual(acknowledged.length)
    } finally {
      if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL')
      await stop(b)
    }
  })
  it('runs each background job once between them: indexing, table imports and exports, the expiry sweep', { timeout: 60_000 }, async () => {
    // A short lease, as in the SIGKILL test below (here no job should ever need it), and a sweep every second.
    const flags = ['--database', database.url, '--blobs', 's3://content/botshelf', '--job-lease', '2', '--expiry-sweep', '1']
    expect((await runCliCaptured(['migrate', '--database', database.url])).code).toBe(0)
    const before = await lastJobSeq()
    const [a, b] = await Promise.all([spawnServe(dataDir, flags), spawnServe(dataDir, flags)])
    const runs = [a, b]
    const token = (await runCliCaptured(['token', 'create', '--database', database.url, '--role', 'developer'])).stdout.trim()
    const caller = { token, botId: a.botId }
    const through = (index: number) => (index % 2 === 0 ? a : b)
    try {
      // Files that expire in a moment.
      const expiresAt = new Date(Date.now() + 1500).toISOString()
      await Promise.all([0, 1, 2].map((index) => uploadWith(through(index), caller, `expiring/${index}.txt`, `gone soon ${index}`, { expiresAt })))

      // Indexing jobs: uploads with index: true through both servers.
      const indexed = await Promise.all(Array.from({ length: 12 }, (_, index) => uploadWith(through(index), caller, `indexed/${index}.md`, markdown(index, 6), { index: true })))

      // Import jobs: one CSV of 40 rows imported into four tables; export jobs: one table exported four times.
      const csv = ['n,label', ...Array.from({ length: 40 }, (_, index) => `${index},row ${index}`)].join('\n')
      const csvId = await uploadWith(a, caller, 'imports/rows.csv', csv, {})
      const schema = { type: 'object', properties: { n: { type: 'number' }, label: { type: 'string' } } }
      const importTables = [0, 1, 2, 3].map((index) => `import${index}Table`)
      for (const [index, name] of importTables.entries()) expect((await call(through(index), caller, 'POST', '/v1/tables', { name, schema })).status).toBe(200)
      expect((await call(a, caller, 'POST', '/v1/tables', { name: 'exportTable', schema })).status).toBe(200)
      const rows = Array.from({ length: 25 }, (_, n) => ({ n, label: `exported ${n}` }))
      expect((await call(b, caller, 'POST', '/v1/tables/exportTable/rows', { rows })).status).toBe(200)
      const tableJobs: Array<{ table: string; id: string }> = []
      for (const [index, table] of importTables.entries()) {
        const imported = await call(through(index), caller, 'POST', `/v1/tables/${table}/import`, { fileId: csvId })
        expect(imported.status, JSON.stringify(imported.json)).toBe(200)
        tableJobs.push({ table, id: imported.json.job.id })
      }
      for (let index = 0; index < 4; index++) {
        const exported = await call(through(index + 1), caller, 'GET', '/v1/tables/exportTable/export?format=csv&compress=false')
        expect(exported.status, JSON.stringify(exported.json)).toBe(200)
        tableJobs.push({ table: 'exportTable', id: exported.json.job.id })
      }

      await waitFor('the indexing and table jobs', async () => {
        const files = await Promise.all(indexed.map((id) => call(a, caller, 'GET', `/v1/files/${id}`)))
        if (!files.every((got) => got.json.file.status === 'indexing_completed')) return false
        for (const { table, id } of tableJobs) {
          const { json } = await call(b, caller, 'GET', `/v1/tables/${table}/jobs`)
          if ((json.jobs as Array<{ id: string; status: string }>).find((job) => job.id === id)?.status !== 'completed') return false
        }
        return true
      })
      // Each import added its 40 rows once: an import run twice would have added them twice.
      for (const table of importTables) expect((await call(a, caller, 'GET', `/v1/tables/${table}`)).json.rows).toBe(40)
      const exportFiles = await database.admin<Array<{ key: string; content_version: number }>>`
        SELECT key, content_version FROM files WHERE key LIKE 'tables/exportTable/%' ORDER BY key`
      expect(exportFiles.length).toBe(4)
      // A second run of an export would have written its file again (a second content version).
      expect(exportFiles.every((file) => file.content_version === 1)).toBe(true)
      // The expired files are deleted by one of the frequent sweeps (every second here).
      await waitFor('the expiry sweep', async () => {
        const [left] = await database.admin<Array<{ count: number }>>`SELECT count(*)::int AS count FROM files WHERE key LIKE 'expiring/%'`
        return left!.count === 0
      })
    } finally {
      await Promise.all([stop(a), stop(b)])
    }

    // The queue: every job was claimed once (a claim counts an attempt) and completed; the only others are the
    // recurring passes (the expiry sweep, the computed columns' sweep) queued for after the servers stopped, never
    // claimed.
    const recurring = new Set(['files.expire', 'tables.compute-sweep'])
    const jobs = await jobsAfter(before)
    const due = jobs.filter((job) => !(recurring.has(job.kind) && job.state === 'pending' && job.attempts === 0))
    expect(due.filter((job) => job.state !== 'completed' || job.attempts !== 1)).toEqual([])
    expect(jobs.length - due.length).toBeLessThanOrEqual(2 * recurring.size)
    const kinds = (kind: string) => due.filter((job) => job.kind === kind).length
    expect([kinds('files.index'), kinds('tables.import'), kinds('tables.export')]).toEqual([12, 4, 4])
    // One pass per one-second slot between the two servers, not one per server: a slot can have a second pass
    // only when the second server started just after the first's pass of its start slot had finished.
    const passes = due.filter((job) => job.kind === 'files.expire')
    expect(passes.length).toBeGreaterThanOrEqual(2)
    const slots = passes.map((job) => Math.floor(Date.parse(job.run_at) / 1000))
    expect(passes.length - new Set(slots).size).toBeLessThanOrEqual(1)

    // The logs: each of those jobs completed in exactly one server process, its own worker (pid) holding it.
    const completedBy = new Map<string, string[]>()
    for (const run of runs) {
      for (const line of logLines(run, 'job completed')) {
        expect(line['workerId']).toContain(`:${run.child.pid}:`)
        completedBy.set(line['jobId'], [...(completedBy.get(line['jobId']) ?? []), String(run.child.pid)])
      }
    }
    for (const job of due) expect(completedBy.get(job.id), `${job.kind} ${job.id}`).toHaveLength(1)
    // Both servers took a share of the work.
    const firstPair = due.filter((job) => job.kind !== 'files.expire').map((job) => completedBy.get(job.id)![0])
    expect(new Set(firstPair)).toEqual(new Set([String(a.child.pid), String(b.child.pid)]))
    // The sweep deleted the three expired files once between the servers.
    const swept = runs.flatMap((run) => logLines(run, 'deleted expired files')).reduce((sum, line) => sum + Number(line['count']), 0)
    expect(swept).toBe(3)
  })

  it('SIGKILL of one server while it indexes: the other finishes its jobs once the lease runs out, nothing is lost or stuck', { timeout: 60_000 }, async () => {
    const flags = ['--database', database.url, '--blobs', 's3://content/botshelf', '--job-lease', '2']
    expect((await runCliCaptured(['migrate', '--database', database.url])).code).toBe(0)
    const before = await lastJobSeq()
    const [a, b] = await Promise.all([spawnServe(dataDir, flags), spawnServe(dataDir, flags)])
    const token = (await runCliCaptured(['token', 'create', '--database', database.url, '--role', 'developer'])).stdout.trim()
    const caller = { token, botId: a.botId }
    const content = (index: number) => markdown(100 + index, 60)
    const heldByA = async () =>
      database.admin<Array<{ id: string }>>`
        SELECT id FROM queue_jobs WHERE seq > ${before} AND kind = 'files.index' AND state = 'running' AND lease_owner LIKE ${`%:${a.child.pid}:%`}`
    try {
      // Uploads through the first server, one after the other; it is killed once it holds indexing jobs, uploads
      // still coming.
      const acknowledged: Array<{ id: string; index: number }> = []
      let killedHolding: string[] = []
      const uploads = (async () => {
        for (let index = 0; index < 16; index++) {
          const id = await uploadWith(a, caller, `kill-index/${index}.md`, content(index), { index: true })
          acknowledged.push({ id, index })
        }
        // The upload in flight when the server dies fails; only the acknowledged ones count.
      })().catch(() => undefined)
      await waitFor('the first server to hold an indexing job', async () => {
        killedHolding = (await heldByA()).map((job) => job.id)
        return killedHolding.length > 0 && acknowledged.length >= 3
      })
      a.child.kill('SIGKILL')
      expect(await a.exited).toBe('SIGKILL')
      // What it held when it died (a job finished between the look above and the kill is not among them); its
      // leases run 2 s, so nobody has taken them yet.
      killedHolding = (await heldByA()).map((job) => job.id)
      expect(killedHolding.length).toBeGreaterThan(0)
      await uploads

      // The other server finishes every acknowledged file's indexing, the killed server's jobs once their lease ran out.
      await waitFor('the other server to index every acknowledged file', async () => {
        const statuses = await Promise.all(acknowledged.map(({ id }) => call(b, caller, 'GET', `/v1/files/${id}`)))
        return statuses.every((got) => got.json.file.status === 'indexing_completed')
      })
      for (const { id, index } of acknowledged) {
        const got = await call(b, caller, 'GET', `/v1/files/${id}`)
        expect(await (await fetch(got.json.file.url)).text()).toBe(content(index))
        const passages = await call(b, caller, 'GET', `/v1/files/${id}/passages`)
        expect(passages.status).toBe(200)
        expect(passages.json.passages.length).toBeGreaterThan(0)
      }
      // No file is stuck waiting for indexing, and none is half readable: complete and indexed, or never completed.
      const listed = await call(b, caller, 'GET', '/v1/files?pageSize=100')
      const files = (listed.json.files as Array<{ key: string; status: string }>).filter((file) => file.key.startsWith('kill-index/'))
      expect(files.filter((file) => file.status !== 'indexing_completed' && file.status !== 'upload_pending')).toEqual([])
      expect(files.filter((file) => file.status === 'indexing_completed').length).toBeGreaterThanOrEqual(acknowledged.length)
      // The jobs the killed server held were claimed again (a second attempt) and completed by the other one.
      const taken = await database.admin<Array<{ id: string; state: string; attempts: number }>>`
        SELECT id, state, attempts FROM queue_jobs WHERE id IN ${database.admin(killedHolding)}`
      expect(taken.map((job) => [job.state, job.attempts])).toEqual(killedHolding.map(() => ['completed', 2]))
      const completedByB = new Set(logLines(b, 'job completed').map((line) => line['jobId']))
      for (const id of killedHolding) expect(completedByB.has(id)).toBe(true)
    } finally {
      if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL')
      await stop(b)
    }
  })
})
