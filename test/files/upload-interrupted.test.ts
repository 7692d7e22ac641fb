import { request as httpRequest } from 'node:http'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../helpers/service.js'

let service: TestService
beforeEach(async () => {
  service = await startTestService({ listen: true })
})
afterEach(async () => {
  await service.close()
})

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('an upload that breaks off', () => {
  it('marks the version upload_failed, keeps the previous content, and leaves no temporary file', async () => {
    const client = service.botpressClient('bot')
    await client.uploadFile({ key: 'doc.txt', content: 'first version' })
    const { file } = await client.upsertFile({ key: 'doc.txt', size: 100_000 })

    await new Promise<void>((resolve) => {
      const req = httpRequest(file.uploadUrl, { method: 'PUT', headers: { 'content-length': '100000' } })
      req.on('error', () => resolve())
      req.write(Buffer.alloc(30_000, 1), () => {
        setTimeout(() => {
          req.destroy()
          resolve()
        }, 100)
      })
    })

    await until(async () => (await client.getFile({ id: 'doc.txt' })).file.status === 'upload_failed')
    const after = (await client.getFile({ id: 'doc.txt' })).file
    expect(after.failedStatusReason).toMatch(/interrupted/)
    expect(after.size).toBe(13)
    expect(await (await fetch(after.url)).text()).toBe('first version')
    const tmp = join(service.dataDir, 'content', 'files', 'tmp')
    await until(async () => (await readdir(tmp)).length === 0)
    expect(await readdir(join(service.dataDir, 'content', 'files', 'blobs'))).toHaveLength(1)
  })
})
