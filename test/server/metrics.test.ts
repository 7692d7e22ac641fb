import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, type BotshelfApp } from '../../server/src/http/app.js'
import type { AppEnv } from '../../server/src/http/env.js'
import { silentLogger } from '../../server/src/http/logger.js'
import { createServer } from '../../server/src/http/server.js'

// docs/operations.md (Metrics): a known sequence of requests must show up in the counters, and only a workspace
// administrator token reads them.

let app: BotshelfApp
let botId: string
let botToken: string
let adminToken: string
let developerToken: string

// A feature whose route fails like a broken database would: the 500 must count as a database error.
const brokenDatabase = Object.assign(new Error('disk I/O error'), { name: 'SqliteError', code: 'SQLITE_IOERR' })
const failingFeature = {
  name: 'failing',
  routes: new Hono<AppEnv>().get('/v1/broken', () => {
    throw brokenDatabase
  }),
}

beforeAll(async () => {
  const { defaultFeatures } = await import('../../server/src/http/app.js')
  app = await createApp({ memory: true, logger: silentLogger, features: [...defaultFeatures, failingFeature] })
  const boot = await app.admin.bootstrap()
  botId = boot.bot.id
  botToken = boot.token!.token
  adminToken = (await app.admin.createToken({ workspace: true, role: 'administrator' })).token
  developerToken = (await app.admin.createToken({ workspace: true, role: 'developer' })).token
})
afterAll(async () => {
  await app.close()
})

function send(path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('authorization', `Bearer ${init.token}`)
  if (init.token && path.startsWith('/v1')) headers.set('x-bot-id', botId)
  return app.fetch(new Request(`http://local${path}`, { ...init, headers }))
}

async function scrape(token = adminToken): Promise<string> {
  const response = await send('/metrics', { token })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toContain('text/plain')
  return response.text()
}

function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? ''
    if (wanted.every(([k, v]) => labelText.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1))
  }
  return undefined
}

describe('GET /metrics', () => {
  it('counts a known sequence of requests by operation and status, with latency and bytes', async () => {
    let listedBytes = 0
    for (let i = 0; i < 3; i++) {
      const listed = await send('/v1/files', { token: botToken })
      expect(listed.status).toBe(200)
      listedBytes += (await listed.arrayBuffer()).byteLength
    }
    expect((await send('/v1/files/missing.txt', { token: botToken })).status).toBe(404)
    expect((await send('/v1/files')).status).toBe(401)
    const body = JSON.stringify({ key: 'metrics.txt', size: 5 })
    const upsert = await send('/v1/files', { token: botToken, method: 'PUT', body, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } })
    expect(upsert.status).toBe(200)
    const { file } = (await upsert.json()) as { file: { uploadUrl: string } }
    const uploadPath = new URL(file.uploadUrl)
    expect((await app.fetch(new Request(`http://local${uploadPath.pathname}${uploadPath.search}`, { method: 'PUT', body: 'hello', headers: { 'content-length': '5' } }))).status).toBe(200)
    expect((await send('/v1/broken', { token: botToken })).status).toBe(500)

    const text = await scrape()
    expect(sample(text, 'botshelf_requests_total', { operation: 'listFiles', status: '200' })).toBe(3)
    expect(sample(text, 'botshelf_requests_total', { operation: 'getFile', status: '404' })).toBe(1)
    expect(sample(text, 'botshelf_requests_total', { operation: 'upsertFile', status: '200' })).toBe(1)
    // The 401 was answered before any operation ran: labelled by its route.
    expect(sample(text, 'botshelf_requests_total', { operation: 'GET /v1/files', status: '401' })).toBe(1)
    expect(sample(text, 'botshelf_request_duration_seconds_count', { operation: 'listFiles' })).toBe(3)
    expect(sample(text, 'botshelf_request_bytes_total', { operation: 'upsertFile' })).toBe(Buffer.byteLength(body))
    // Counted as the bodies were read: exactly the bytes the caller received.
    expect(sample(text, 'botshelf_response_bytes_total', { operation: 'listFiles' })).toBe(listedBytes)
    const uploadLabel = /botshelf_request_bytes_total\{operation="(PUT [^"]+)"\} 5$/m.exec(text)?.[1]
    expect(uploadLabel, 'the content upload is counted with its 5 bytes, under its route pattern').toMatch(/^PUT \//)
    expect(uploadLabel).not.toContain('metrics.txt')
    expect(sample(text, 'botshelf_database_errors_total')).toBe(1)
    expect(sample(text, 'botshelf_blob_errors_total')).toBe(0)
    for (const state of ['pending', 'running', 'completed', 'dead']) expect(sample(text, 'botshelf_jobs', { state })).toEqual(expect.any(Number))
    expect(text).toContain('# TYPE botshelf_request_duration_seconds histogram')
    expect(text).toContain('process_cpu_seconds_total')
  })

  it('is readable with a workspace administrator token only: 401 without a token, 403 for others', async () => {
    expect((await send('/metrics')).status).toBe(401)
    expect((await send('/metrics', { token: 'bs_unknown' })).status).toBe(401)
    const forbidden = await send('/metrics', { token: botToken })
    expect(forbidden.status).toBe(403)
    expect(((await forbidden.json()) as { message: string }).message).toContain('workspace administrator token')
    expect((await send('/metrics', { token: developerToken })).status).toBe(403)
  })

  it('moves to a port of its own with metricsPort', async () => {
    const server = await createServer({ memory: true, port: 0, metricsPort: 0, logger: silentLogger })
    try {
      await server.app.admin.bootstrap()
      const admin = (await server.app.admin.createToken({ workspace: true, role: 'administrator' })).token
      const headers = { authorization: `Bearer ${admin}` }
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.metricsUrl).not.toBe(server.url)
      expect((await fetch(`${server.url}/metrics`, { headers })).status).toBe(404)
      const scraped = await fetch(`${server.metricsUrl}/metrics`, { headers })
      expect(scraped.status).toBe(200)
      expect(await scraped.text()).toContain('botshelf_requests_total')
      expect((await fetch(`${server.metricsUrl}/metrics`)).status).toBe(401)
      expect((await fetch(`${server.metricsUrl}/v1/files`, { headers })).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})
