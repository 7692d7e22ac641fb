import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../server/src/store/postgres/test-database.test-support.js'
import { runCliCaptured, spawnServe, type ServeProcess } from '../helpers/cli.js'

// The real CLI against a real PostgreSQL database made for this file (dropped after).
let database: TestDatabase
let dataDir: string
beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = await mkdtemp(join(tmpdir(), 'botshelf-pg-cli-'))
})
afterAll(async () => {
  await database?.drop()
  await rm(dataDir, { recursive: true, force: true })
})

function call(url: string, token: string, botId: string, path = '/v1/files'): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}`, 'x-bot-id': botId } })
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.child.kill('SIGTERM')
  expect(await serve.exited).toBe(0)
}

describe('botshelf on PostgreSQL', () => {
  it('refuses to manage tokens in a database no server prepared, then migrate prepares it, once', async () => {
    const unprepared = await runCliCaptured(['token', 'list', '--database', database.url])
    expect(unprepared.code).toBe(2)
    expect(unprepared.stderr).toMatch(/is not prepared for botshelf \(\d+ migrations pending\)\. Run "botshelf migrate --database URL"/)

    const first = await runCliCaptured(['migrate', '--database', database.url])
    expect(first.code).toBe(0)
    expect(first.stdout.trim().split('\n')).toEqual(expect.arrayContaining(['auth-0001-workspace-bots-tokens-secrets', 'jobs-0001-queue-jobs']))
    expect(first.stderr).toMatch(/applied \d+ migrations/)
    const again = await runCliCaptured(['migrate', '--database', database.url])
    expect(again).toMatchObject({ code: 0, stdout: '' })
    expect(again.stderr).toContain('already up to date')
  })

  it('two servers starting at once on an empty database migrate it and print one token between them; both accept it; later starts print none', async () => {
    const empty = await createTestDatabase()
    try {
      await twoServersThenOne(empty)
    } finally {
      await empty.drop()
    }
  })

  async function twoServersThenOne(database: TestDatabase): Promise<void> {
    const [a, b] = await Promise.all([spawnServe(dataDir, ['--database', database.url]), spawnServe(dataDir, ['--database', database.url])])
    try {
      const tokens = [a.token, b.token].filter((token): token is string => token !== undefined)
      expect(tokens).toHaveLength(1)
      expect(a.botId).toBe(b.botId)
      expect(a.stderr()).toMatch(/database:\s+postgres:\/\/postgres@127\.0\.0\.1:5432\/botshelf_t_\w+ \(file content in .*content\)/)
      for (const server of [a, b]) expect((await call(server.url, tokens[0]!, a.botId)).status).toBe(200)

      // The management commands reach the same data, through the variable as well as the flag.
      const viewer = await runCliCaptured(['token', 'create', '--database', database.url, '--role', 'viewer'])
      expect(viewer.code).toBe(0)
      expect((await call(b.url, viewer.stdout.trim(), a.botId)).status).toBe(200)
      process.env['BOTSHELF_DATABASE_URL'] = database.url
      try {
        const bots = await runCliCaptured(['bot', 'list', '--json'])
        expect(bots.code).toBe(0)
        expect((JSON.parse(bots.stdout) as Array<{ id: string }>).map((bot) => bot.id)).toEqual([a.botId])
      } finally {
        delete process.env['BOTSHELF_DATABASE_URL']
      }
    } finally {
      await Promise.all([stop(a), stop(b)])
    }

    const later = await spawnServe(dataDir, ['--database', database.url])
    try {
      expect(later.token).toBeUndefined()
      expect(later.botId).toBe(a.botId)
      expect(later.stderr()).toContain('use the token printed on first start')
    } finally {
      await stop(later)
    }
  }

  it('refuses a database URL that is not PostgreSQL before starting anything', async () => {
    const result = await runCliCaptured(['serve', '--port', '0', '--data', dataDir, '--database', 'mysql://db/x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--database must be a PostgreSQL URL like postgres://')
  })
})
