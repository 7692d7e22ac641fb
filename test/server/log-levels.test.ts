import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { createApp, defaultFeatures } from '../../server/src/http/app.js'
import type { AppEnv } from '../../server/src/http/env.js'
import type { LoggerLike } from '../../server/src/http/logger.js'
import { withLogThreshold } from '../../server/src/http/log-level.js'
import { serveLogger } from '../../server/src/cli/serve-logging.js'

// docs/server.md (Logs): 5xx at error, slow requests at warn, everything else (4xx included) at info; the
// threshold drops the lines below it.

const probes = {
  name: 'probes',
  routes: new Hono<AppEnv>()
    .get('/v1/boom', () => {
      throw new Error('kaboom')
    })
    .get('/v1/slow', async (c) => {
      // Kept real: the pipeline times the request with the real clock, and being slow is what this route is for.
      await new Promise((resolve) => setTimeout(resolve, 30))
      return c.json({ ok: true })
    }),
}

async function requestLevels(threshold: 'debug' | 'info' | 'warn' | 'error' | 'silent', slowRequestMs: number) {
  const lines: Array<{ level: string; msg: string; status?: unknown; path?: unknown }> = []
  const sink: LoggerLike = { log: (level, msg, fields) => lines.push({ level, msg, ...fields }) }
  const app = await createApp({ memory: true, logger: withLogThreshold(sink, threshold), features: [...defaultFeatures, probes], slowRequestMs })
  try {
    const { bot, token } = await app.admin.bootstrap()
    const headers = { authorization: `Bearer ${token!.token}`, 'x-bot-id': bot.id }
    for (const path of ['/v1/files', '/v1/files/nope', '/v1/boom', '/v1/slow']) await (await app.fetch(new Request(`http://local${path}`, { headers }))).arrayBuffer()
  } finally {
    await app.close()
  }
  return lines.filter((l) => l.msg === 'request').map((l) => [l.path, l.status, l.level])
}

describe('request log levels', () => {
  // Slow detection off (0): how long a request takes under load never changes these levels.
  it('logs 2xx and 4xx at info and 5xx at error', async () => {
    expect(await requestLevels('info', 0)).toEqual([
      ['/v1/files', 200, 'info'],
      ['/v1/files/nope', 404, 'info'],
      ['/v1/boom', 500, 'error'],
      ['/v1/slow', 200, 'info'],
    ])
  })

  // A bound of 1 ms: the route that sleeps 30 ms is past it whatever the machine does.
  it('logs a request slower than slowRequestMs at warn, and a 5xx at error even when slow', async () => {
    const levels = await requestLevels('info', 1)
    expect(levels).toContainEqual(['/v1/slow', 200, 'warn'])
    expect(levels).toContainEqual(['/v1/boom', 500, 'error'])
  })

  it('drops what is below the threshold', async () => {
    expect(await requestLevels('error', 0)).toEqual([['/v1/boom', 500, 'error']])
    expect(await requestLevels('silent', 1)).toEqual([])
  })
})

describe('serve log format', () => {
  const capture = (isTTY: boolean) => {
    const lines: string[] = []
    return { lines, io: { stdout: { write: (t: string) => lines.push(t), isTTY }, stderr: { write: () => true }, env: {} } }
  }
  const request = { method: 'GET', path: '/v1/files', status: 404, ms: 2.5, requestId: 'req_0123', botId: 'bot-1' }

  it('is pretty on a terminal and JSON lines otherwise, unless --log-format says', () => {
    const terminal = capture(true)
    serveLogger({}, terminal.io).logger.log('info', 'request', request)
    expect(terminal.lines[0]).toMatch(/^\S*\d\d:\d\d:\d\d\.\d{3}\S* .*INFO.* GET \/v1\/files .*404.* 2\.5 ms.*bot=bot-1.*req_0123/)

    const pipe = capture(false)
    serveLogger({}, pipe.io).logger.log('info', 'request', request)
    expect(JSON.parse(pipe.lines[0]!)).toMatchObject({ level: 'info', msg: 'request', status: 404 })

    const forced = capture(true)
    serveLogger({ 'log-format': 'json' }, forced.io).logger.log('warn', 'request', request)
    expect(JSON.parse(forced.lines[0]!)).toMatchObject({ level: 'warn' })
  })

  it('takes the level from --log-level, else BOTSHELF_LOG_LEVEL', () => {
    const fromEnv = capture(false)
    const logger = serveLogger({}, { ...fromEnv.io, env: { BOTSHELF_LOG_LEVEL: 'error' } }).logger
    logger.log('warn', 'dropped', {})
    logger.log('error', 'kept', {})
    expect(fromEnv.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['kept'])
    const flag = capture(false)
    const flagged = serveLogger({ 'log-level': 'debug' }, { ...flag.io, env: { BOTSHELF_LOG_LEVEL: 'error' } }).logger
    flagged.log('debug', 'job claimed', {})
    expect(flag.lines).toHaveLength(1)
  })
})
