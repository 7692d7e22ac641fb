import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCliCaptured, spawnServe } from '../helpers/cli.js'

let dataDir: string | undefined
afterEach(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  dataDir = undefined
})

describe('botshelf serve --quota-file-storage', () => {
  it('refuses an upload past the quota with 413 and the reason; botshelf usage shows what was kept', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'botshelf-quota-'))
    const serve = await spawnServe(dataDir, ['--quota-file-storage', '1KB'])
    try {
      const headers = { authorization: `Bearer ${serve.token}`, 'x-bot-id': serve.botId, 'content-type': 'application/json' }
      const upload = async (key: string, size: number): Promise<Response> => {
        const upsert = await fetch(`${serve.url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key, size }) })
        expect(upsert.status).toBe(200)
        const { file } = (await upsert.json()) as { file: { uploadUrl: string } }
        return fetch(file.uploadUrl, { method: 'PUT', body: 'x'.repeat(size) })
      }
      expect((await upload('a.txt', 1000)).status).toBe(200)
      const refused = await upload('b.txt', 100)
      expect(refused.status).toBe(413)
      expect(await refused.text()).toContain("the workspace's File Storage quota of 1024 bytes would be exceeded: 1000 bytes are used and this content has 100")
    } finally {
      serve.child.kill('SIGTERM')
      await serve.exited
    }
    const usage = await runCliCaptured(['usage', '--data', dataDir, '--json'])
    expect(usage.code).toBe(0)
    expect(JSON.parse(usage.stdout).total.fileStorage).toEqual({ files: 1, bytes: 1000 })
  })

  it('refuses a size it cannot read, naming the flag', async () => {
    const result = await runCliCaptured(['serve', '--quota-vector-storage', 'lots'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--quota-vector-storage must be a size like 500MB or 10GB')
  })
})
