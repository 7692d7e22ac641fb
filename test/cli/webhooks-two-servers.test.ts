import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'
import { s3Environment, startS3TestServer, type S3TestServer } from '../helpers/s3-server.js'
import { startReceiver } from '../server/webhooks/receiver.js'

// Two real `botshelf serve` processes on one PostgreSQL database and one S3 bucket, one subscription: each event
// reaches it once, whichever server recorded it and whichever runs its delivery job.
let database: TestDatabase
let s3: S3TestServer
let dataDir: string
const savedEnv = { ...process.env }
beforeAll(async () => {
  database = await createTestDatabase()
  s3 = await startS3TestServer({ buckets: ['content'] })
  dataDir = await mkdtemp(join(tmpdir(), 'botshelf-webhooks-two-'))
  Object.assign(process.env, s3Environment(s3))
})
afterAll(async () => {
  process.env = savedEnv
  await s3?.stop()
  await database?.drop()
  await rm(dataDir, { recursive: true, force: true })
})

async function call(server: ServeProcess, token: string, botId: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  const text = await response.text()
  return { status: response.status, json: text ? JSON.parse(text) : undefined }
}

describe('two servers on one PostgreSQL + S3 dataset', () => {
  it('deliver each event once per subscription', { timeout: 90_000 }, async () => {
    const receiver = await startReceiver()
    const flags = ['--database', database.url, '--blobs', 's3://content/botshelf']
    const [a, b] = await Promise.all([spawnServe(dataDir, flags), spawnServe(dataDir, flags)])
    try {
      const token = (a.token ?? b.token)!
      const botId = a.botId
      expect((await call(a, token, botId, 'POST', '/v1/webhooks', { url: `${receiver.url}/once`, types: ['table.rows.created'] })).status).toBe(200)
      expect((await call(b, token, botId, 'POST', '/v1/webhooks', { url: `${receiver.url}/twice` })).status).toBe(200)
      const schema = { type: 'object', properties: { n: { type: 'number' } } }
      expect((await call(a, token, botId, 'POST', '/v1/tables', { name: 'sharedTable', schema })).status).toBe(200)
      for (let i = 0; i < 20; i++) {
        const server = i % 2 === 0 ? a : b
        expect((await call(server, token, botId, 'POST', '/v1/tables/sharedTable/rows', { rows: [{ n: i }] })).status).toBe(200)
      }
      await receiver.waitFor(() => receiver.on('/once').length >= 20 && receiver.on('/twice').length >= 21, 'every delivery', 60_000)
      for (const path of ['/once', '/twice']) {
        const ids = receiver.on(path).map((request) => request.headers['webhook-id'])
        expect(new Set(ids).size).toBe(ids.length)
      }
      expect(receiver.on('/once').map((request) => request.json.payload.rows[0].n).sort((x: number, y: number) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i))
    } finally {
      a.child.kill('SIGTERM')
      b.child.kill('SIGTERM')
      await Promise.all([a.exited, b.exited])
      await receiver.close()
    }
  })
})
