/**
 * The bundled `botshelf` command (decision 1486), the file the package's `bin` and `npm start` run: it serves, and each
 * part it finds from its own location works from the bundle's chunks. The worker threads (request bodies parsed off
 * the loop, document extraction, the code sandbox), the offline embedder's word vectors, the console's files and the
 * package version. From source, the rest of the suite covers the same behaviour; this file covers the packaging.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@botpress/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../helpers/cli.js'
import { eventually } from '../helpers/eventually.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const bundledBin = join(root, 'server', 'dist', 'bundle', 'bin.js')

let work: string
let serve: ServeProcess
let client: Client

beforeAll(async () => {
  // Builds both packages and the bundle when missing or older than their sources (the checkout's launcher does it).
  const built = spawnSync(process.execPath, ['scripts/botshelf.mjs', '--version'], { cwd: root, encoding: 'utf8', timeout: 240_000 })
  expect(built.status, built.stderr).toBe(0)
  work = await mkdtemp(join(tmpdir(), 'botshelf-bundled-'))
  serve = await spawnServe(join(work, 'data'), [], [bundledBin])
  client = new Client({ apiUrl: serve.url, token: serve.token!, botId: serve.botId })
}, 300_000)

afterAll(async () => {
  if (serve) {
    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
  }
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the bundled botshelf command', () => {
  it('is what the package runs, and prints the package version', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'server', 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> }
    expect(join(root, 'server', manifest.bin['botshelf']!)).toBe(bundledBin)
    const version = spawnSync(process.execPath, [bundledBin, '--version'], { encoding: 'utf8' })
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout.trim()).toBe(manifest.version)
  })

  it('parses a large body in its worker thread and computes a code column in its sandbox', async () => {
    await client.createTable({
      name: 'bundledTable',
      isComputeEnabled: true,
      schema: {
        text: { type: 'string' },
        words: { type: 'number', 'x-zui': { computed: { action: 'code', code: 'return row.text.split(" ").length', dependencies: ['text'] } } },
      },
    } as never)
    // 1,000 rows of ~300 bytes: over the 256 KiB from which a body is parsed off the event loop.
    const rows = Array.from({ length: 1000 }, (_, i) => ({ text: `row ${i} ${'word '.repeat(58).trim()}` }))
    expect(Buffer.byteLength(JSON.stringify({ rows }))).toBeGreaterThan(256 * 1024)
    const created = await client.createTableRows({ table: 'bundledTable', rows })
    expect(created.rows).toHaveLength(1000)
    const row = await eventually(async () => {
      const { row } = await client.getTableRow({ table: 'bundledTable', id: created.rows[0]!.id })
      return row.computed['words']?.status === 'computed' ? row : undefined
    }, 'the code column computed')
    expect(row['words']).toBe(60)
  })

  it('extracts, embeds with the offline word vectors and finds an uploaded document', async () => {
    const html = '<html><body><h1>Lighthouse keeping</h1><p>The keeper trims the lamp wick every evening before the fog rolls in.</p></body></html>'
    await client.uploadFile({ key: 'docs/lighthouse.html', content: Buffer.from(html), contentType: 'text/html', index: true })
    await eventually(async () => ((await client.getFile({ id: 'docs/lighthouse.html' })).file.status === 'indexing_completed' ? true : undefined), 'the file indexed')
    const { passages } = await client.searchFiles({ query: 'who trims the lamp wick' })
    expect(passages[0]?.content).toContain('trims the lamp wick')
  })

  it('serves the console', async () => {
    const page = await fetch(`${serve.url}/console/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<script type="module"')
  })
})
