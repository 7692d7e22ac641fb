/**
 * A server killed (kill -9) while it computes AI columns loses none of it (issue 25): the cells left claimed by the
 * dead process are taken over once their lease runs out, and every row ends computed after a restart.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { chatCompletion, lastUserText, startFakeChatServer } from '../../server/src/language-model/fake-chat-server.test-support.js'
import { lineFrom } from '../helpers/child-lines.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const serverScript = fileURLToPath(new URL('./fixtures/computing-server.ts', import.meta.url))

const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined)
})

function start(dataDir: string, llmUrl: string): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript, dataDir, llmUrl], { cwd: root, stdio: 'pipe' })
  cleanup.push(() => child.kill('SIGKILL'))
  return child
}

async function ready(child: ChildProcessWithoutNullStreams): Promise<{ url: string; headers: Record<string, string> }> {
  const [, url, botId, token] = (await lineFrom(child, /ready (\S+) (\S+) (\S+)\n/, 30_000, 'the server')) as unknown as [string, string, string, string]
  return { url, headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId, 'content-type': 'application/json' } }
}

describe('a server killed (kill -9) while it computes AI columns', () => {
  it('loses none of it: after a restart every row is computed', { timeout: 60_000 }, async () => {
    const fake = await startFakeChatServer()
    cleanup.push(() => fake.close())
    fake.reply((body) => chatCompletion(lastUserText(body).includes('love') ? 'positive' : 'negative'))
    const dataDir = await mkdtemp(join(tmpdir(), 'botshelf-compute-crash-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))

    const first = start(dataDir, fake.url)
    const one = await ready(first)
    const schema = {
      review: { type: 'string' },
      sentiment: { type: 'string', 'x-zui': { computed: { action: 'ai', prompt: 'Sentiment: {{review}}', dependencies: ['review'] } } },
    }
    const created = await fetch(`${one.url}/v1/tables`, { method: 'POST', headers: one.headers, body: JSON.stringify({ name: 'crashTable', schema, isComputeEnabled: true }) })
    expect(created.status).toBe(200)
    // The model holds its answers: the computations are in flight when the server dies.
    fake.pause()
    const rows = Array.from({ length: 6 }, (_, i) => ({ review: i % 2 === 0 ? `I love item ${i}` : `Item ${i} broke` }))
    const written = await fetch(`${one.url}/v1/tables/crashTable/rows`, { method: 'POST', headers: one.headers, body: JSON.stringify({ rows }) })
    expect(written.status).toBe(200)
    for (let i = 0; i < 400 && fake.requests.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    expect(fake.requests.length).toBeGreaterThan(0)
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    fake.resume()

    const second = start(dataDir, fake.url)
    const two = await ready(second)
    let found: Array<{ review: string; sentiment: string | null; computed: Record<string, { status: string }> }> = []
    for (let i = 0; i < 400; i++) {
      const answer = await fetch(`${two.url}/v1/tables/crashTable/rows/find`, { method: 'POST', headers: two.headers, body: JSON.stringify({ limit: 100 }) })
      found = ((await answer.json()) as { rows: typeof found }).rows
      if (found.length === 6 && found.every((row) => row.computed.sentiment?.status === 'computed')) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(found.map((row) => [row.review, row.sentiment, row.computed.sentiment?.status])).toEqual(
      rows.map((row) => [row.review, row.review.includes('love') ? 'positive' : 'negative', 'computed']),
    )
    const table = (await (await fetch(`${two.url}/v1/tables/crashTable`, { headers: two.headers })).json()) as { stale: number }
    expect(table.stale).toBe(0)
  })
})
