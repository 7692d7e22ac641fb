import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reindexCommand } from '../../server/src/cli/reindex.js'
import { createOpenAiCompatibleEmbedder, type Embedder } from '../../server/src/search/embedding/index.js'
import { startFakeEmbeddingsServer } from '../../server/src/search/embedding/fake-embeddings-server.test-support.js'
import { createFilesFeature } from '../../server/src/files/feature.js'
import { hashedTestEmbedder } from '../../server/src/search/indexing/hashed-embedder.test-support.js'
import { markdownTestExtractor } from '../../server/src/search/indexing/markdown-extractor.test-support.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { runCliCaptured } from '../helpers/cli.js'
import { uploadText } from '../files/helpers.js'
import { settledFile } from '../files/search-helpers.js'

let dataDir: string
let fake: Awaited<ReturnType<typeof startFakeEmbeddingsServer>>
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'botshelf-reindex-'))
  fake = await startFakeEmbeddingsServer(8)
})
afterEach(async () => {
  await fake.close()
  await rm(dataDir, { recursive: true, force: true })
})

function serviceWith(embedder: Embedder): Promise<TestService> {
  return startTestService({ dataDir, jobs: { pollMs: 50 }, features: [createFilesFeature({ indexing: { extractor: markdownTestExtractor, embedder } })] })
}

function capture(isTTY: boolean) {
  let stdout = ''
  let stderr = ''
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: Object.assign({ write: (text: string) => ((stderr += text), true) }, isTTY ? { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true } : {}),
  }
  return { io, stdout: () => stdout, stderr: () => stderr }
}

// No word of this question is in the documents: only vectors can find a passage.
const NO_SHARED_WORD = 'xylophone quartz'

describe('botshelf reindex', () => {
  it('re-embeds the files another embedder indexed; until then search answers by words, afterwards by the new vectors', async () => {
    const serviceFlags = ['--embeddings-url', fake.url, '--embeddings-model', 'model-b']
    // 1. Index two documents with embedder A.
    const first = await serviceWith(hashedTestEmbedder(16))
    const ids: string[] = []
    try {
      for (const [key, text] of [
        ['returns.md', '# Returns\n\nRefunds are paid within thirty days.\n\nKeep the receipt.'],
        ['shipping.md', '# Shipping\n\nParcels leave the warehouse every morning.'],
      ] as const) {
        const { file } = await uploadText(first, key, text, { index: true })
        expect((await settledFile(first, file.id)).status).toBe('indexing_completed')
        ids.push(file.id)
      }
    } finally {
      await first.close()
    }

    // 2. Serve with embedder B before reindexing: A's vectors are not compared, search still answers (by words).
    const embedderB = createOpenAiCompatibleEmbedder({ url: fake.url, model: 'model-b' })
    const before = await serviceWith(embedderB)
    try {
      const lexical = await before.request('GET', '/v1/files/search', { query: { query: 'refunds thirty' } })
      expect(lexical.status).toBe(200)
      expect(lexical.body.passages[0].content).toBe('Refunds are paid within thirty days.')
      const semantic = await before.request('GET', '/v1/files/search', { query: { query: NO_SHARED_WORD } })
      expect(semantic.status).toBe(200)
      expect(semantic.body.passages).toEqual([])
    } finally {
      await before.close()
    }

    // 3. Reindex with B, with plain progress lines (not a terminal).
    const run = capture(false)
    expect(await reindexCommand(['--data', dataDir, ...serviceFlags], run.io, {})).toBe(0)
    expect(run.stderr()).toContain('reindex: 2 file(s), 5 passage(s) to re-embed')
    expect(run.stderr()).toMatch(/reindex: 2\/2 files, 5\/5 passages/)
    expect(run.stderr()).toMatch(/re-embedded 5 passage\(s\) of 2 file\(s\) with \S*model-b\S*/)
    const embedded = fake.requests.flatMap((request) => request.body.input ?? [])
    // Each passage is embedded under its heading, as when it was indexed (decision 1458).
    expect(embedded).toContain('Returns\n\nRefunds are paid within thirty days.')
    expect(embedded).toContain('Shipping\n\nParcels leave the warehouse every morning.')

    // A second run has nothing left to do.
    const again = capture(false)
    expect(await reindexCommand(['--data', dataDir, ...serviceFlags], again.io, {})).toBe(0)
    expect(again.stderr()).toContain('nothing to do')

    // 4. Search with B now uses the new vectors: a question sharing no word finds passages.
    const after = await serviceWith(createOpenAiCompatibleEmbedder({ url: fake.url, model: 'model-b' }))
    try {
      const semantic = await after.request('GET', '/v1/files/search', { query: { query: NO_SHARED_WORD } })
      expect(semantic.status).toBe(200)
      expect(semantic.body.passages.length).toBe(5)
      expect(new Set(semantic.body.passages.map((p: any) => p.file.id))).toEqual(new Set(ids))
    } finally {
      await after.close()
    }
  })

  it('draws a progress bar on a terminal', async () => {
    const first = await serviceWith(hashedTestEmbedder(16))
    try {
      const { file } = await uploadText(first, 'guide.md', '# Guide\n\nOne paragraph.\n\nAnother paragraph.', { index: true })
      expect((await settledFile(first, file.id)).status).toBe('indexing_completed')
    } finally {
      await first.close()
    }
    const run = capture(true)
    expect(await reindexCommand(['--data', dataDir, '--embeddings-url', fake.url, '--embeddings-model', 'model-b'], run.io, {})).toBe(0)
    expect(run.stderr()).toMatch(/reindex \[[█░]+\] 100% \| 3\/3 passages \| 1\/1 files/)
  })

  it('refuses bad input with exit code 2 and a folder no server ran in', async () => {
    const badBatch = await runCliCaptured(['reindex', '--data', dataDir, '--batch-size', '0'])
    expect(badBatch.code).toBe(2)
    expect(badBatch.stderr).toContain('--batch-size: expected an integer from 1 to 2048, received "0"')
    const badUrl = await runCliCaptured(['reindex', '--data', dataDir, '--embeddings-url', 'not a url', '--embeddings-model', 'm'])
    expect(badUrl.code).toBe(2)
    expect(badUrl.stderr).toContain('--embeddings-url: expected an http(s) base URL')
    const empty = await runCliCaptured(['reindex', '--data', join(dataDir, 'nothing-here'), '--embeddings-url', fake.url, '--embeddings-model', 'm'])
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('No botshelf data folder')
    const help = await runCliCaptured(['reindex', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Re-embeds every indexed file')
  })
})
