import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../src/store/postgres/test-database.test-support.js'
import { runCliCaptured, spawnServe, type ServeProcess } from '../helpers/cli.js'
import { startS3TestServer, type S3TestServer } from '../helpers/s3-server.js'

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
  Object.assign(process.env, {
    BOTSHELF_S3_ENDPOINT: s3.endpoint,
    BOTSHELF_S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    AWS_REGION: s3.region,
  })
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
})
