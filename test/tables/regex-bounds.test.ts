import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBodySchema } from '../../src/api/error-body.js'
import { startTestService, type TestService } from '../helpers/service.js'

// docs/decisions/0701-input-bounds.md: RE2 is linear, but its factor is the size of the compiled program. A
// pattern compiles to at most 1000 instructions, a match that could overrun the query's 50 ms is refused before
// it runs, and the matches of one query stop at 50 ms: a $regex request never holds the server for long.

let service: TestService
beforeAll(async () => {
  service = await startTestService({ listen: true })
  const table = await service.request('POST', '/v1/tables', { body: { name: 'textTable', schema: { body: { type: 'string' }, n: { type: 'number' } }, factor: 30 } })
  expect(table.status, table.text).toBe(200)
  const rows = await service.request('POST', '/v1/tables/textTable/rows', { body: { rows: [{ body: 'ab'.repeat(30_000), n: 1 }, { body: 'short abc', n: 2 }] } })
  expect(rows.status, rows.text).toBe(200)
})
afterAll(async () => {
  await service.close()
})

/**
 * POSTs a find over the real port while a `GET /health` goes alongside (answered). How long `/health` waits beside
 * hostile filters is measured by `npm run fuzz` (bench/README.md), not asserted here: a test asserts no time.
 */
async function findWithHealth(body: unknown, table = 'textTable'): Promise<{ status: number; type: string; message: string }> {
  const headers = { authorization: `Bearer ${service.tokens.bot}`, 'x-bot-id': service.botId, 'content-type': 'application/json' }
  const find = fetch(`${service.url}/v1/tables/${table}/rows/find`, { method: 'POST', headers, body: JSON.stringify(body) }).then(async (res) => ({ res, text: await res.text() }))
  const health = await fetch(`${service.url}/health`)
  expect(health.status).toBe(200)
  const { res, text } = await find
  const parsed = JSON.parse(text) as { type?: string; message?: string }
  if (res.status !== 200) ErrorBodySchema.parse(parsed)
  return { status: res.status, type: parsed.type ?? '', message: parsed.message ?? '' }
}

describe('$regex work bounds', () => {
  it('answers (.*a){1000} over a 60 KB value with a clear 400 before running it, /health answering alongside', async () => {
    const result = await findWithHealth({ filter: { body: { $regex: '(.*a){1000}' } } })
    expect(result.status).toBe(400)
    expect(result.message).toBe(
      'filter.body.$regex: the pattern is too complex: it would compile to about 6000 instructions, at most 1000 are allowed; lower repetition counts such as {1000}',
    )
  })

  it('refuses a pattern within the size limit whose match over a 60 KB value could take seconds, before running it', async () => {
    const result = await findWithHealth({ filter: { body: { $regex: '(.*a){190}' } } })
    expect(result.status).toBe(400)
    expect(result.message).toBe(
      'filter.body.$regex: the $regex filter needs more work than allowed: a pattern of 952 instructions against a value of 60000 characters may take up to 7140 ms, and at most 50 ms are allowed; use a simpler pattern, or narrow the rows with other conditions first',
    )
    expect(result.type).toBe('InvalidQuery')
  })

  it('runs the same pattern on the rows other conditions leave', async () => {
    const narrowed = await service.request('POST', '/v1/tables/textTable/rows/find', { body: { filter: { n: 2, body: { $regex: '(.*a){1}' } } } })
    expect(narrowed.status, narrowed.text).toBe(200)
    expect(narrowed.body.rows.map((r: { n: number }) => r.n)).toEqual([2])
  })

  it('keeps ordinary patterns working on long values', async () => {
    const found = await service.request('POST', '/v1/tables/textTable/rows/find', { body: { filter: { body: { $regex: 'b$' } }, select: ['n'] } })
    expect(found.status, found.text).toBe(200)
    expect(found.body.rows.map((r: { n: number }) => r.n)).toEqual([1])
    const insensitive = await service.request('POST', '/v1/tables/textTable/rows/find', { body: { filter: { body: { $regex: 'ABC$', $options: 'i' } }, select: ['n'] } })
    expect(insensitive.body.rows.map((r: { n: number }) => r.n)).toEqual([2])
  })

  it('stops a query whose matches add up past 50 ms, however many rows it scans, with /health answered alongside', async () => {
    await service.request('POST', '/v1/tables', { body: { name: 'manyTable', schema: { text: { type: 'string' } } } })
    let seed = 7
    const letter = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) < 1073741824 ? 'a' : 'b')
    const rows = Array.from({ length: 200 }, () => ({ text: Array.from({ length: 3_000 }, letter).join('') }))
    expect((await service.request('POST', '/v1/tables/manyTable/rows', { body: { rows } })).status).toBe(200)
    // On random a/b text this pattern makes RE2's DFA build states for nothing and its NFA walk about 100 threads
    // a character: some 20 ms a row, so a scan of 200 rows would hold the server for seconds.
    const result = await findWithHealth({ filter: { text: { $regex: '(?i)a[ab]{100}c' } } }, 'manyTable')
    expect(result.status).toBe(400)
    expect(result.type).toBe('InvalidQuery')
    expect(result.message).toMatch(
      /^filter\.text\.\$regex: the \$regex filter needs more work than allowed: \d+ values? took \d+(\.\d+)? ms so far and the next, a pattern of 10\d instructions against a value of 3000 characters may take up to \d+ ms; at most 50 ms are allowed; use a simpler pattern, or narrow the rows with other conditions first$/,
    )
  })

  it('bounds the column pattern checks of a write by the size of what is written', async () => {
    const created = await service.request('POST', '/v1/tables', { body: { name: 'patternTable', schema: { code: { type: 'string', pattern: '(.*a){190}' } }, factor: 30 } })
    expect(created.status, created.text).toBe(200)
    const res = await service.request('POST', '/v1/tables/patternTable/rows', { body: { rows: [{ code: 'ab'.repeat(30_000) }] } })
    expect(res.status).toBe(400)
    expect(res.body.type).toBe('InvalidDataFormat')
    expect(res.body.message).toBe(
      '1 value does not fit the table schema; no row was written: rows.0.code: checking the column pattern needs more work than allowed: a pattern of 952 instructions against a value of 60000 characters may take up to 7140 ms, and at most 56 ms are allowed; write fewer or shorter values per call, or use a simpler pattern',
    )
    const short = await service.request('POST', '/v1/tables/patternTable/rows', { body: { rows: [{ code: 'ba'.repeat(200) }] } })
    expect(short.status, short.text).toBe(200)
  })

  it('refuses column patterns too complex for a table', async () => {
    const res = await service.request('POST', '/v1/tables', { body: { name: 'complexTable', schema: { code: { type: 'string', pattern: '(.*a){1000}' } } } })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ type: 'InvalidJsonSchema', message: 'schema.code.pattern: the pattern is too complex: it would compile to about 6000 instructions, at most 1000 are allowed; lower repetition counts such as {1000}' })
  })
})
