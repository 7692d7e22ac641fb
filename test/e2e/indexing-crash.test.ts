import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { lineFrom } from '../helpers/child-lines.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const serverScript = fileURLToPath(new URL('./fixtures/indexing-server.ts', import.meta.url))

const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined)
})


function start(dataDir: string, mode: 'hang' | 'normal'): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript, dataDir, mode], { cwd: root, stdio: 'pipe' })
  cleanup.push(() => child.kill('SIGKILL'))
  return child
}

describe('a server killed (kill -9) while it indexes a file', () => {
  it('loses nothing: after a restart the indexing job finishes and the file becomes searchable', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-index-crash-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))

    const first = start(dataDir, 'hang')
    const [, url, botId, token] = (await lineFrom(first, /ready (\S+) (\S+) (\S+)\n/, 30_000, 'the server')) as unknown as [string, string, string, string]
    const headers = { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' }
    const content = '# Field notes\n\nThe okapi lives in the Ituri forest.'
    const upsert = await fetch(`${url}/v1/files`, { method: 'PUT', headers, body: JSON.stringify({ key: 'notes.md', size: Buffer.byteLength(content), index: true }) })
    const { file } = (await upsert.json()) as { file: { id: string; uploadUrl: string } }
    expect((await fetch(file.uploadUrl, { method: 'PUT', body: content })).status).toBe(200)
    await lineFrom(first, /extracting notes\.md\n/, 30_000, 'the server')
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))

    const second = start(dataDir, 'normal')
    const [, url2, , token2] = (await lineFrom(second, /ready (\S+) (\S+) (\S+)\n/, 30_000, 'the server')) as unknown as [string, string, string, string]
    const headers2 = { ...headers, authorization: `Bearer ${token2}` }
    let status = ''
    for (let i = 0; i < 400 && status !== 'indexing_completed' && status !== 'indexing_failed'; i++) {
      status = ((await (await fetch(`${url2}/v1/files/${file.id}`, { headers: headers2 })).json()) as { file: { status: string } }).file.status
      if (status !== 'indexing_completed') await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe('indexing_completed')
    const search = (await (await fetch(`${url2}/v1/files/search?query=okapi`, { headers: headers2 })).json()) as { passages: Array<{ content: string }> }
    // The matching passage ranks first (the vector half may add the file's other passage after it).
    expect(search.passages[0]?.content).toBe('The okapi lives in the Ituri forest.')
  })
})
