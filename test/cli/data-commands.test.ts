import { randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../server/src/cli/main.js'
import { serveForClientCommands, type ServedFolder, type ServeProcess } from '../helpers/cli.js'

// Every data command against a real `botshelf serve` on a port (a child process); the commands run in process
// with their own environment, so BP_* of the test runner never leak in.

let serve: ServeProcess
let work: string
let env: Record<string, string>

let served: ServedFolder | undefined

beforeAll(async () => {
  served = await serveForClientCommands('botshelf-data-cli-')
  ;({ serve, work, env } = served)
}, 30_000)

afterAll(() => served?.stop())

async function cli(argv: string[], extraEnv: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { ...env, ...extraEnv },
  })
  return { code, stdout, stderr }
}

async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(dir, entry.name))
      else found.push(relative(root, join(dir, entry.name)).split('\\').join('/'))
    }
  }
  await walk(root)
  return found.sort()
}

describe('botshelf files', () => {
  it('puts a folder of 100 files recursively and gets it back byte for byte', async () => {
    const source = join(work, 'hundred')
    for (let i = 0; i < 100; i++) {
      const dir = join(source, `d${i % 7}`, i % 3 === 0 ? 'deep' : '')
      await mkdir(dir, { recursive: true })
      await writeFile(join(dir, `f${i}.bin`), randomBytes(100 + i * 37))
    }
    const put = await cli(['files', 'put', source, '--prefix', 'batch/', '--tag', 'kind=batch', '--json'])
    expect(put.stderr).toContain('put: uploaded 100 of 100 files')
    expect(put.code).toBe(0)
    const uploaded = JSON.parse(put.stdout) as Array<{ key: string }>
    expect(uploaded.map((u) => u.key).sort()).toEqual((await filesUnder(source)).map((p) => `batch/${p}`))
    // Plain progress lines (standard error is not a terminal here): percentages of the bytes, with rate and ETA.
    expect(put.stderr).toMatch(/^put: \d+% [\d.]+ (B|kB)\/[\d.]+ kB.*, [\d.]+ (B|kB|MB)\/s, ETA \S+$/m)

    const ls = await cli(['files', 'ls', '--prefix', 'batch/', '--json'])
    const listed = JSON.parse(ls.stdout) as Array<{ key: string; tags: Record<string, string>; status: string }>
    expect(listed).toHaveLength(100)
    expect(listed.every((f) => f.tags.kind === 'batch' && f.status === 'upload_completed')).toBe(true)
    expect(listed.map((f) => f.key)).toEqual([...listed.map((f) => f.key)].sort())

    const destination = join(work, 'hundred-back')
    const get = await cli(['files', 'get', 'batch/', destination])
    expect(get.code).toBe(0)
    expect(get.stderr).toContain('get: downloaded 100 of 100 files')
    const back = await filesUnder(destination)
    expect(back).toEqual(await filesUnder(source))
    for (const path of back) expect((await readFile(join(destination, path))).equals(await readFile(join(source, path))), path).toBe(true)
    // No temporary file stays behind.
    expect(back.some((p) => p.endsWith('.part'))).toBe(false)
  }, 60_000)

  it('gets one file, copies, tags, lists as a table and removes', async () => {
    const one = join(work, 'note.txt')
    await writeFile(one, 'hello from the terminal\n')
    expect((await cli(['files', 'put', one, '--key', 'notes/hello.txt'])).code).toBe(0)
    const target = join(work, 'got')
    await mkdir(target)
    expect((await cli(['files', 'get', 'notes/hello.txt', target])).code).toBe(0)
    expect(await readFile(join(target, 'hello.txt'), 'utf8')).toBe('hello from the terminal\n')

    expect((await cli(['files', 'cp', 'notes/hello.txt', 'notes/copy.txt'])).code).toBe(0)
    const tagged = await cli(['files', 'tag', 'notes/copy.txt', 'reviewed=yes', 'lang=en', '--json'])
    expect(JSON.parse(tagged.stdout)).toEqual({ reviewed: 'yes', lang: 'en' })
    const untagged = await cli(['files', 'tag', 'notes/copy.txt', '--remove', 'lang'])
    expect(untagged.stdout).toBe('reviewed=yes\n')

    const table = await cli(['files', 'ls', '--prefix', 'notes/'])
    expect(table.stdout.split('\n')[0]).toMatch(/^key\s+size\s+status\s+type\s+updated\s+tags$/)
    expect(table.stdout).toMatch(/notes\/copy\.txt\s+24 B\s+upload_completed\s+text\/plain\s+\S+\s+reviewed=yes/)

    const refused = await cli(['files', 'rm', 'notes/'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('add --recursive')
    const removed = await cli(['files', 'rm', 'notes/', '--recursive'])
    expect(removed.code).toBe(0)
    expect(removed.stderr).toContain('rm: deleted 2 files')
    expect(JSON.parse((await cli(['files', 'ls', '--prefix', 'notes/', '--json'])).stdout)).toEqual([])
  })

  it('search finds a passage of a file put with --index, and passages lists them in order', async () => {
    // Files put without --index: an empty answer says there is nothing indexed, not nothing relevant.
    const none = await cli(['files', 'search', 'refund'])
    expect(none.code).toBe(0)
    expect(none.stdout).toBe('no indexed files\n')
    const doc = join(work, 'refunds.md')
    await writeFile(doc, '# Refunds\n\nOrders are refunded within fourteen days of the return reaching the warehouse.\n')
    const put = await cli(['files', 'put', doc, '--key', 'policies/refunds.md', '--index'])
    expect(put.code).toBe(0)
    let listed = ''
    for (let i = 0; i < 200 && !listed.includes('indexing_completed'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      listed = (await cli(['files', 'ls', '--prefix', 'policies/', '--json'])).stdout
    }
    expect(listed).toContain('indexing_completed')
    const search = await cli(['files', 'search', 'how long until my refund', '--json'])
    expect(search.code).toBe(0)
    expect(search.stdout).toContain('fourteen days')
    const nonsense = await cli(['files', 'search', 'zzzqqq xylophone'])
    expect(nonsense.stdout).toBe('no relevant passage\n')
    const passages = await cli(['files', 'passages', 'policies/refunds.md', '--json'])
    expect(passages.code).toBe(0)
    expect(passages.stdout.indexOf('Refunds')).toBeLessThan(passages.stdout.indexOf('fourteen days'))
  })
})

describe('botshelf tables', () => {
  it('imports a CSV into a new table (schema inferred), finds, exports, and the export imports again', async () => {
    const csv = join(work, 'people.csv')
    const lines = ['name,age,member,notes']
    for (let i = 0; i < 2500; i++) lines.push(`person ${i},${20 + (i % 50)},${i % 2 === 0},"says ""hi"", twice"`)
    lines.push('Zed,,false,')
    await writeFile(csv, `${lines.join('\r\n')}\r\n`)

    const imported = await cli(['tables', 'import', 'peopleTable', csv])
    expect(imported.stderr).toContain('import: created table peopleTable (name: string, age: number, member: boolean, notes: string)')
    expect(imported.stderr).toContain('import: inserted 2501 rows into peopleTable')
    expect(imported.code).toBe(0)

    const described = await cli(['tables', 'describe', 'peopleTable'])
    expect(described.stdout).toContain('peopleTable: 2501 rows')
    expect(described.stdout).toMatch(/age\s+number/)

    const found = await cli(['tables', 'find', 'peopleTable', '--filter', '{"age":{"$gte":69},"member":false}', '--json', '--limit', '1000'])
    expect(found.code).toBe(0)
    const rows = JSON.parse(found.stdout) as Array<{ name: string; age: number; member: boolean; notes: string }>
    expect(rows).toHaveLength(50)
    expect(rows.every((r) => r.age === 69 && r.member === false && r.notes === 'says "hi", twice')).toBe(true)

    const filterFile = join(work, 'filter.json')
    await writeFile(filterFile, JSON.stringify({ name: 'Zed' }))
    const csvOut = await cli(['tables', 'find', 'peopleTable', '--filter', `@${filterFile}`, '--csv'])
    expect(csvOut.stdout).toMatch(/^id,name,age,member,notes,createdAt,updatedAt\r\n2501,Zed,,false,,\S+,\S+\r\n$/)

    const table = await cli(['tables', 'find', 'peopleTable', '--limit', '2'])
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+name\s+age\s+member\s+notes\s+createdAt\s+updatedAt$/)
    expect(table.stderr).toContain('more rows match: continue with --offset 2')

    const exported = join(work, 'people-export.csv.gz')
    const exportRun = await cli(['tables', 'export', 'peopleTable', exported])
    expect(exportRun.code).toBe(0)
    expect(exportRun.stderr).toContain('export: exported 2501 rows')
    const again = await cli(['tables', 'import', 'peopleCopyTable', exported])
    expect(again.code).toBe(0)
    expect(again.stderr).toContain('import: inserted 2501 rows into peopleCopyTable')
    const copy = JSON.parse((await cli(['tables', 'find', 'peopleCopyTable', '--filter', '{"name":"person 7"}', '--json'])).stdout) as unknown[]
    expect(copy).toEqual([expect.objectContaining({ name: 'person 7', age: 27, member: false, notes: 'says "hi", twice' })])

    const json = join(work, 'people.json')
    expect((await cli(['tables', 'export', 'peopleTable', json, '--filter', '{"age":20}'])).code).toBe(0)
    const parsed = JSON.parse(await readFile(json, 'utf8')) as Array<{ age: number }>
    expect(parsed).toHaveLength(50)
    expect(parsed.every((r) => r.age === 20)).toBe(true)
  }, 60_000)

  it('creates, inserts, lists, imports JSON into an existing table converting values, and removes with --yes', async () => {
    const created = await cli(['tables', 'create', 'ordersTable', '--schema', '{"item":{"type":"string"},"total":{"type":"number"}}'])
    expect(created.code).toBe(0)
    const inserted = await cli(['tables', 'insert', 'ordersTable', '[{"item":"pen","total":3},{"item":"book","total":12}]', '--json'])
    expect(JSON.parse(inserted.stdout)).toEqual([expect.objectContaining({ id: 1, item: 'pen' }), expect.objectContaining({ id: 2, item: 'book' })])
    const more = join(work, 'orders.json.gz')
    await writeFile(more, gzipSync(JSON.stringify([{ item: 'lamp', total: 40 }])))
    expect((await cli(['tables', 'import', 'ordersTable', more])).code).toBe(0)
    const listed = await cli(['tables', 'ls', '--json'])
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name)).toContain('ordersTable')
    const totals = JSON.parse((await cli(['tables', 'find', 'ordersTable', '--json', '--order-by', 'total', '--desc'])).stdout) as Array<{ total: number }>
    expect(totals.map((r) => r.total)).toEqual([40, 12, 3])

    expect((await cli(['tables', 'rm', 'ordersTable'])).stderr).toContain('add --yes to confirm')
    expect((await cli(['tables', 'rm', 'ordersTable', '--yes'])).code).toBe(0)
    const gone = await cli(['tables', 'describe', 'ordersTable'])
    expect(gone.code).toBe(1)
    expect(gone.stderr).toContain('ResourceNotFound')
  })

  it('a JSON export imports again into a new table with identical rows (the computed and stale fields of rows are read, not refused)', async () => {
    const schema = '{"item":{"type":"string"},"total":{"type":"number"},"meta":{"type":"object"},"tags":{"type":"array"},"paid":{"type":"boolean"}}'
    expect((await cli(['tables', 'create', 'roundTripTable', '--schema', schema])).code).toBe(0)
    const rows = [
      { item: 'pen', total: 3, meta: { colour: 'blue' }, tags: ['a', 'b'], paid: true },
      { item: 'book, "used"', total: 12.5, meta: { pages: 300 }, tags: [], paid: false },
    ]
    expect((await cli(['tables', 'insert', 'roundTripTable', JSON.stringify(rows)])).code).toBe(0)
    const file = join(work, 'round-trip.json')
    expect((await cli(['tables', 'export', 'roundTripTable', file])).code).toBe(0)
    const exported = JSON.parse(await readFile(file, 'utf8')) as Array<Record<string, unknown>>
    expect(exported[0]).toHaveProperty('computed')
    const imported = await cli(['tables', 'import', 'roundTripCopyTable', file])
    expect(imported.stderr).not.toContain('reserved')
    expect(imported.code).toBe(0)
    const values = (table: string) =>
      cli(['tables', 'find', table, '--json']).then((run) =>
        (JSON.parse(run.stdout) as Array<Record<string, unknown>>).map(({ id: _id, createdAt: _c, updatedAt: _u, computed: _computed, ...rest }) => rest),
      )
    expect(await values('roundTripCopyTable')).toEqual(await values('roundTripTable'))
    expect(await values('roundTripCopyTable')).toEqual(rows)
  })

  it('describe shows computed columns (action, what they read, off) and the rows waiting', async () => {
    const schema = '{"a":{"type":"number"},"doubled":{"type":"number","x-zui":{"computed":{"action":"code","code":"return row.a * 2","dependencies":["a"]}}}}'
    expect((await cli(['tables', 'create', 'describedTable', '--schema', schema])).code).toBe(0)
    const described = await cli(['tables', 'describe', 'describedTable'])
    expect(described.stdout).toContain('describedTable: 0 rows, 0 waiting to be computed or indexed, compute off')
    expect(described.stdout).toMatch(/doubled\s+number\s+computed: code from a \(off\)/)
  })

  it('takes back a failed import: a value that does not fit stops it and the rows inserted are deleted', async () => {
    expect((await cli(['tables', 'create', 'scoresTable', '--schema', '{"score":{"type":"number"}}'])).code).toBe(0)
    const csv = join(work, 'scores.csv')
    const lines = ['score', ...Array.from({ length: 1500 }, (_, i) => String(i)), 'lots']
    await writeFile(csv, `${lines.join('\n')}\n`)
    const failed = await cli(['tables', 'import', 'scoresTable', csv])
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('row 1501, column "score": expected a number, received "lots"')
    expect(failed.stderr).toContain('the 1000 rows it had inserted were deleted')
    expect((await cli(['tables', 'describe', 'scoresTable'])).stdout).toContain('scoresTable: 0 rows')
  })
})

describe('connection settings', () => {
  it('login saves a profile (owner-only file) that later commands use without BP_*; flags win over it', async () => {
    const bare = { BP_API_URL: undefined, BP_TOKEN: undefined, BP_BOT_ID: undefined }
    const missing = await cli(['files', 'ls'], bare)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('No token: pass --token, set BP_TOKEN, or save one with "botshelf login"')

    const login = await cli(['login', '--url', serve.url, '--token', serve.token!, '--bot', serve.botId], bare)
    expect(login.code).toBe(0)
    const path = join(work, 'config', 'profiles.json')
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect((await cli(['files', 'ls', '--prefix', 'batch/d1/', '--json'], bare)).code).toBe(0)

    const wrong = await cli(['files', 'ls', '--token', 'bs_wrong'], bare)
    expect(wrong.code).toBe(3)
    expect(wrong.stderr).toContain('check --token')

    const unreachable = await cli(['files', 'ls', '--url', 'http://127.0.0.1:9'], bare)
    expect(unreachable.code).toBe(3)
    expect(unreachable.stderr).toContain('cannot reach the service')

    expect((await cli(['logout'], bare)).code).toBe(0)
    expect((await cli(['files', 'ls'], bare)).code).toBe(2)
  })

  it('every subcommand has its own help', async () => {
    for (const [group, sub] of [['files', 'put'], ['files', 'get'], ['tables', 'import'], ['tables', 'find']] as const) {
      const help = await cli([group, sub, '--help'])
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(new RegExp(`^Usage: botshelf ${group} ${sub} `))
    }
    const unknown = await cli(['files', 'mv'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('Unknown files command "mv"; expected ls, put, get, rm, cp, tag, search, passages')
  })
})
