import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'

const MB = 1024 * 1024
const DECLARED = 200 * MB
const SENT_BEFORE_KILL = 8 * MB

const cleanup: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined)
})

type Api = { url: string; botId: string; token: string }

async function call(api: Api, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.token}`, 'x-bot-id': api.botId, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  return { status: res.status, json: await res.json() }
}

async function download(url: string): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(url)
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) }
}

/** Starts a PUT of `DECLARED` bytes, sends `SENT_BEFORE_KILL` of them, then stalls (the request stays open). */
function stalledUpload(uploadUrl: string): { request: http.ClientRequest; ended: Promise<unknown> } {
  const request = http.request(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/octet-stream', 'content-length': DECLARED } })
  const ended = new Promise((resolve) => {
    request.on('error', resolve)
    request.on('response', resolve)
    request.on('close', resolve)
  })
  const chunk = randomBytes(MB)
  for (let sent = 0; sent < SENT_BEFORE_KILL; sent += MB) request.write(chunk)
  return { request, ended }
}

async function tempBytes(dir: string): Promise<{ files: number; bytes: number }> {
  let bytes = 0
  const names = await readdir(dir)
  for (const name of names) bytes += (await stat(join(dir, name))).size
  return { files: names.length, bytes }
}

async function waitFor(check: () => Promise<boolean>, what: string, ms = 15_000, state?: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${state ? ` (${await state()})` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('a server killed during uploads', () => {
  it('leaves no visible partial content, consistent rows, and no leftovers after a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-crash-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
    const first: ServeProcess = await spawnServe(dataDir)
    cleanup.push(async () => first.child.kill('SIGKILL'))
    const api: Api = { url: first.url, botId: first.botId, token: first.token! }
    const tmpFolder = join(dataDir, 'content', 'files', 'tmp')
    const blobFolder = join(dataDir, 'content', 'files', 'blobs')

    // Version 1 of doc.bin is complete; version 2 and fresh.bin are being uploaded when the process dies.
    const v1 = await call(api, 'PUT', '/v1/files', { key: 'doc.bin', size: 10 })
    const put = await fetch(v1.json.file.uploadUrl, { method: 'PUT', body: '0123456789' })
    expect(put.status).toBe(200)
    const v2 = await call(api, 'PUT', '/v1/files', { key: 'doc.bin', size: DECLARED })
    const fresh = await call(api, 'PUT', '/v1/files', { key: 'fresh.bin', size: DECLARED })
    expect(fresh.json.file.status).toBe('upload_pending')
    const docBefore = (await call(api, 'GET', '/v1/files/doc.bin')).json.file
    const freshBefore = (await call(api, 'GET', '/v1/files/fresh.bin')).json.file

    const uploads = [stalledUpload(v2.json.file.uploadUrl), stalledUpload(fresh.json.file.uploadUrl)]
    await waitFor(async () => {
      const t = await tempBytes(tmpFolder)
      return t.files === 2 && t.bytes >= 2 * SENT_BEFORE_KILL
    }, 'both uploads to reach the temp folder', 15_000, () => tempBytes(tmpFolder).then((t) => JSON.stringify(t)))

    first.child.kill('SIGKILL')
    expect(await first.exited).toBe('SIGKILL')
    await Promise.all(uploads.map((u) => u.ended))
    // The partial content is on disk, only as temporary files.
    expect((await tempBytes(tmpFolder)).bytes).toBeGreaterThanOrEqual(2 * SENT_BEFORE_KILL)
    expect(await readdir(blobFolder)).toHaveLength(1)

    const second = await spawnServe(dataDir)
    cleanup.push(async () => second.child.kill('SIGKILL'))
    expect(second.botId).toBe(first.botId)
    const after: Api = { ...api, url: second.url }

    // Leftovers are swept at start.
    await waitFor(async () => (await tempBytes(tmpFolder)).files === 0, 'the startup sweep')
    expect(await readdir(blobFolder)).toHaveLength(1)
    // The log line is written after the files are gone, and reaches our pipe a moment later.
    const sweptLine = /"msg":"swept leftover content".*"temporaryFiles":2/
    await waitFor(async () => sweptLine.test(second.stdout()), 'the sweep log line', 15_000, async () => second.stdout())
    expect(second.stdout()).toMatch(sweptLine)

    // Rows are as they were before the crash: nothing half-written became visible.
    const doc = (await call(after, 'GET', '/v1/files/doc.bin')).json.file
    const stripUrls = ({ url: _url, ...rest }: Record<string, unknown>) => rest
    expect(stripUrls(doc)).toEqual(stripUrls(docBefore))
    const docContent = await download(doc.url)
    expect(docContent.status).toBe(200)
    expect(docContent.bytes.toString()).toBe('0123456789')

    const freshAfter = (await call(after, 'GET', '/v1/files/fresh.bin')).json.file
    expect(stripUrls(freshAfter)).toEqual(stripUrls(freshBefore))
    expect(freshAfter).toMatchObject({ status: 'upload_pending', size: null })
    const freshContent = await download(freshAfter.url)
    expect(freshContent.status).toBe(404)
    expect(freshContent.bytes.length).toBeLessThan(2000)

    // The service works normally afterwards: a new upload of the interrupted key completes.
    const retry = await call(after, 'PUT', '/v1/files', { key: 'fresh.bin', size: 5 })
    expect((await fetch(retry.json.file.uploadUrl, { method: 'PUT', body: 'hello' })).status).toBe(200)
    const done = (await call(after, 'GET', '/v1/files/fresh.bin')).json.file
    expect(done).toMatchObject({ status: 'upload_completed', size: 5 })
    expect((await download(done.url)).bytes.toString()).toBe('hello')

    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })
})

describe('a server stopped with SIGTERM during an upload', () => {
  it('lets the upload finish, then exits 0 with the file complete', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-sigterm-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
    const first = await spawnServe(dataDir)
    cleanup.push(async () => first.child.kill('SIGKILL'))
    const api: Api = { url: first.url, botId: first.botId, token: first.token! }
    const size = 24 * MB
    const upserted = await call(api, 'PUT', '/v1/files', { key: 'graceful.bin', size })

    const chunk = randomBytes(MB)
    const hash = createHash('sha256')
    const request = http.request(upserted.json.file.uploadUrl, { method: 'PUT', headers: { 'content-length': size } })
    const response = new Promise<number>((resolve, reject) => {
      request.on('response', (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      request.on('error', reject)
    })
    for (let i = 0; i < 8; i++) {
      request.write(chunk)
      hash.update(chunk)
    }
    await waitFor(async () => (await tempBytes(join(dataDir, 'content', 'files', 'tmp'))).bytes > 0, 'the upload to start')
    first.child.kill('SIGTERM')
    await waitFor(async () => first.stderr().includes('SIGTERM: finishing requests in flight'), 'the shutdown to begin')
    for (let i = 8; i < 24; i++) {
      request.write(chunk)
      hash.update(chunk)
    }
    request.end()
    expect(await response).toBe(200)
    expect(await first.exited).toBe(0)

    const second = await spawnServe(dataDir)
    cleanup.push(async () => second.child.kill('SIGKILL'))
    const file = (await call({ ...api, url: second.url }, 'GET', '/v1/files/graceful.bin')).json.file
    expect(file).toMatchObject({ status: 'upload_completed', size })
    const content = await download(file.url)
    expect(createHash('sha256').update(content.bytes).digest('hex')).toBe(hash.digest('hex'))
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
  })
})
