import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultWordVectorsPath } from '../../server/src/search/embedding/index.js'
import { startFakeEmbeddingsServer } from '../../server/src/search/embedding/fake-embeddings-server.test-support.js'
import { serveCommand } from '../../server/src/cli/serve.js'
import { runCliCaptured } from '../helpers/cli.js'

const ENV_NAMES = ['BOTSHELF_EMBEDDINGS_URL', 'BOTSHELF_EMBEDDINGS_MODEL', 'BOTSHELF_EMBEDDINGS_API_KEY', 'BOTSHELF_EMBEDDINGS_BATCH_SIZE'] as const

let dataDir: string
let savedEnv: Record<string, string | undefined>
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'botshelf-serve-embed-'))
  savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]))
  for (const name of ENV_NAMES) delete process.env[name]
})
afterEach(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name]
    else process.env[name] = savedEnv[name]
  }
  await rm(dataDir, { recursive: true, force: true })
})

function captured() {
  let stderr = ''
  return { io: { stdout: { write: () => true }, stderr: { write: (text: string) => (stderr += text) } }, stderr: () => stderr }
}

async function waitForStatus(url: string, headers: Record<string, string>, id: string): Promise<any> {
  for (let i = 0; i < 400; i++) {
    const file = ((await (await fetch(`${url}/v1/files/${id}`, { headers })).json()) as any).file
    if (file.status !== 'indexing_pending' && file.status !== 'upload_pending') return file
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`file ${id} stayed pending`)
}

describe('botshelf serve: embeddings configuration', () => {
  it('embeds with the service the flags name (flags win over variables) and says so in the banner', async () => {
    const fake = await startFakeEmbeddingsServer(16)
    process.env.BOTSHELF_EMBEDDINGS_URL = 'http://127.0.0.1:9/never-used'
    process.env.BOTSHELF_EMBEDDINGS_MODEL = 'model-from-variable'
    process.env.BOTSHELF_EMBEDDINGS_API_KEY = 'key-from-variable'
    const out = captured()
    const handle = (await serveCommand(
      ['--port', '0', '--data', dataDir, '--rate-limit', 'off', '--embeddings-url', fake.url, '--embeddings-model', 'model-from-flag', '--embeddings-api-key', 'key-from-flag'],
      out.io,
      false,
    ))!
    try {
      expect(out.stderr()).toMatch(/search:\s+model-from-flag via http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings/)
      const token = /bot token:\s+(\S+)/.exec(out.stderr())![1]!
      const botId = /bot id:\s+(\S+)/.exec(out.stderr())![1]!
      const headers = { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' }
      const url = handle.server.url
      const body = new TextEncoder().encode('Refunds are paid within thirty days of the return.')
      const upsert = (await (await fetch(`${url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key: 'refunds.txt', size: body.byteLength, index: true }) })).json()) as any
      expect((await fetch(upsert.file.uploadUrl, { method: 'PUT', body })).status).toBe(200)
      expect(await waitForStatus(url, headers, upsert.file.id)).toMatchObject({ status: 'indexing_completed' })
      const passageCall = fake.requests.find((request) => request.body.input?.some((text) => text.includes('thirty days')))
      expect(passageCall?.body.model).toBe('model-from-flag')
      expect(passageCall?.headers.authorization).toBe('Bearer key-from-flag')
    } finally {
      await handle.stop()
      await fake.close()
    }
  })

  it('takes the service from the variables when no flag is given', async () => {
    const fake = await startFakeEmbeddingsServer(8)
    process.env.BOTSHELF_EMBEDDINGS_URL = fake.url
    process.env.BOTSHELF_EMBEDDINGS_MODEL = 'model-from-variable'
    const out = captured()
    const handle = (await serveCommand(['--port', '0', '--data', dataDir], out.io, false))!
    try {
      expect(out.stderr()).toMatch(/search:\s+model-from-variable via /)
    } finally {
      await handle.stop()
      await fake.close()
    }
  })

  it('names the offline default and its measured quality when no service is configured (or says words only when it is not built)', async () => {
    const out = captured()
    const handle = (await serveCommand(['--port', '0', '--data', dataDir], out.io, false))!
    try {
      // The word-vector file is made by `npm run build`; without it the banner must say so rather than claim vectors.
      if (existsSync(defaultWordVectorsPath())) {
        expect(out.stderr()).toMatch(/search:\s+offline word vectors \+ n-grams \(hybrid recall@10 0\.79 .*set --embeddings-url for a model\)/)
      } else {
        expect(out.stderr()).toMatch(/search:\s+words only \(BM25\): the offline embedder could not load: .*npm run build/)
      }
    } finally {
      await handle.stop()
    }
  })

  it('refuses a bad flag with exit code 2, naming the flag, what it expects and what it received', async () => {
    const bad = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--embeddings-url', 'http://127.0.0.1:1/v1', '--embeddings-model', 'm', '--embeddings-batch-size', 'zero'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--embeddings-batch-size: expected an integer ≥ 1, received "zero"')
    const url = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--embeddings-url', 'ftp://x', '--embeddings-model', 'm'])
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('--embeddings-url: expected an http(s) base URL')
  })

  it('names the variable when the bad value came from the environment, and the missing model', async () => {
    process.env.BOTSHELF_EMBEDDINGS_BATCH_SIZE = '-3'
    const bad = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--embeddings-url', 'http://127.0.0.1:1/v1', '--embeddings-model', 'm'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('BOTSHELF_EMBEDDINGS_BATCH_SIZE: expected an integer ≥ 1, received "-3"')
    delete process.env.BOTSHELF_EMBEDDINGS_BATCH_SIZE
    const noModel = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--embeddings-url', 'http://127.0.0.1:1/v1'])
    expect(noModel.code).toBe(2)
    expect(noModel.stderr).toContain('BOTSHELF_EMBEDDINGS_MODEL: expected a model name')
  })

  it('lists the embeddings flags in its help', async () => {
    const help = await runCliCaptured(['serve', '--help'])
    for (const flag of ['--embeddings-url', '--embeddings-model', '--embeddings-api-key', '--embeddings-batch-size']) expect(help.stdout).toContain(flag)
    expect(help.stdout).toContain('BOTSHELF_EMBEDDINGS_API_KEY')
  })
})
