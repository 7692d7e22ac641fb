import { writeFileSync } from 'node:fs'
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../server/src/cli/main.js'
import { runCliCaptured } from '../helpers/cli.js'
import { startTestService, type TestService } from '../helpers/service.js'

// Issue 27, the newcomer's list: each item fixed here has its test, named by its number in the issue. The data
// commands run in process against one in-process service on a port.

const root = fileURLToPath(new URL('../../', import.meta.url))
let service: TestService
let work: string

beforeAll(async () => {
  service = await startTestService({ listen: true })
  work = await mkdtemp(join(tmpdir(), 'botshelf-newcomer-'))
})
afterAll(async () => {
  await service?.close()
  if (work) await rm(work, { recursive: true, force: true })
})

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const env = { BP_API_URL: service.url, BP_TOKEN: service.tokens.bot, BP_BOT_ID: service.botId, BOTSHELF_CONFIG_DIR: join(work, 'config') }
  const code = await runCli(argv, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env })
  return { code, stdout, stderr }
}

describe('the newcomer\'s list (issue 27)', () => {
  it('7. files get of a prefix no key starts with fails (exit 1) saying so, instead of "downloaded 0 of 0 files"', async () => {
    const result = await cli(['files', 'get', 'nothere/', join(work, 'x')])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('get: no file\'s key starts with "nothere/"; nothing was downloaded')
    expect(result.stderr).not.toContain('downloaded 0 of 0')
  })

  it('12. token list shows the labels the console shows; npm pack\'s tarballs are ignored by git', async () => {
    const dataDir = service.dataDir
    const created = await runCliCaptured(['token', 'create', '--data', dataDir, '--bot', service.botId, '--role', 'viewer', '--label', 'dashboard'])
    expect(created.stderr).toContain('(viewer) for bot')
    expect(created.code).toBe(0)
    const listed = await runCliCaptured(['token', 'list', '--data', dataDir])
    expect(listed.stdout.split('\n')[0]).toMatch(/^id\s+scope\s+bot\s+role\s+integration\s+label\s+created\s+revoked$/)
    expect(listed.stdout).toMatch(/viewer\s+-\s+dashboard\s/)
    const ignored = await promisify(execFile)('git', ['check-ignore', 'botshelf-0.1.0.tgz', 'server/botshelf-server-0.1.0.tgz'], { cwd: root })
    expect(ignored.stdout.trim().split('\n')).toEqual(['botshelf-0.1.0.tgz', 'server/botshelf-server-0.1.0.tgz'])
  })

  it('9. tables export takes --json like tables find; serve --help puts each default and section where it belongs; token create --help names --database', async () => {
    const bot = service.botpressClient()
    await bot.createTable({ name: 'petsTable', schema: { type: 'object', properties: { name: { type: 'string' } } } })
    await bot.createTableRows({ table: 'petsTable', rows: [{ name: 'Rex' }] })
    const exported = await cli(['tables', 'export', 'petsTable', '-', '--json'])
    expect(exported.code).toBe(0)
    expect((JSON.parse(exported.stdout) as Array<{ name: string }>).map((row) => row.name)).toEqual(['Rex'])
    expect((await cli(['tables', 'export', 'petsTable', '-', '--json', '--format', 'csv'])).code).toBe(2)

    const serveHelp = (await runCliCaptured(['serve', '--help'])).stdout
    const blobsHelp = serveHelp.slice(serveHelp.indexOf('  --blobs'), serveHelp.indexOf('  --public-url'))
    expect(blobsHelp).not.toContain('BOTSHELF_DATABASE_URL')
    expect(blobsHelp).toContain('(default: the data folder)')
    const databaseHelp = serveHelp.slice(serveHelp.indexOf('  --database'), serveHelp.indexOf('  --blobs'))
    expect(databaseHelp).toContain('default: none, SQLite in --data')
    const embeddings = serveHelp.indexOf('Search embeddings')
    const quotas = serveHelp.indexOf('Storage quotas of the workspace:')
    expect(quotas).toBeGreaterThan(embeddings)
    expect(serveHelp.indexOf('--quota-file-storage')).toBeGreaterThan(quotas)

    for (const sub of ['create', 'list', 'revoke']) {
      expect((await runCliCaptured(['token', sub, '--help'])).stdout, sub).toContain('--database <url>')
    }
  })

  it('4. the docs and the help no longer say usage is "not available yet" or that search answers MethodNotFound', async () => {
    const { readFile } = await import('node:fs/promises')
    const texts: Record<string, string> = {
      'docs/cli.md': await readFile(join(root, 'docs/cli.md'), 'utf8'),
      'docs/client.md': await readFile(join(root, 'docs/client.md'), 'utf8'),
      'files search --help': (await cli(['files', 'search', '--help'])).stdout,
      'files passages --help': (await cli(['files', 'passages', '--help'])).stdout,
    }
    for (const [where, text] of Object.entries(texts)) {
      expect(text, where).not.toMatch(/not available yet|until (search and )?indexing|answers? `?MethodNotFound/)
    }
    expect(texts['files search --help']).toContain('--index')
  })

  it('5. a CSV with one age=forty among numbers, into a new table: the string column is announced with the row and value', async () => {
    const { writeFile } = await import('node:fs/promises')
    const path = join(work, 'people.csv')
    const lines = ['name,age', ...Array.from({ length: 1000 }, (_, i) => `p${i},${i === 300 ? 'forty' : 20 + (i % 50)}`)]
    await writeFile(path, `${lines.join('\n')}\n`)
    const result = await cli(['tables', 'import', 'staffTable', path])
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('import: created table staffTable (name: string, age: string)')
    expect(result.stderr).toContain('import: column "age" is created as string: 999 of its values are numbers but 1 is not (row 301: "forty")')
  })

  it('6. the table-name rule is checked before the file is read, and tables import --help states it', async () => {
    const missing = join(work, 'never-read.csv')
    const result = await cli(['tables', 'import', 'people', missing])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('<table>: expected 1 to 45 letters, digits or _ followed by "Table" (like ordersTable), received "people"')
    // The file does not exist: it was never opened.
    expect(result.stderr).not.toContain('never-read.csv')
    expect((await cli(['tables', 'import', '--help'])).stdout).toContain('then "Table" (ordersTable)')
  })

  it('8. CSV errors name the file and count rows the same way, with no internal label, and exit 1 (2 is for bad command lines)', async () => {
    const { writeFile } = await import('node:fs/promises')
    const broken = join(work, 'broken.csv')
    await writeFile(broken, `name,age\n${Array.from({ length: 300 }, (_, i) => `p${i},${i}`).join('\n')}\n"unclosed,1\n`)
    const bad = await cli(['tables', 'import', 'brokenTable', broken])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain(`${broken}: row 301 (line 302): unterminated quoted field`)
    expect(bad.stderr).not.toContain('fileId')
    expect(bad.stderr).not.toContain('CSV record')

    const short = join(work, 'short.csv')
    await writeFile(short, `name,age\n${Array.from({ length: 499 }, (_, i) => `p${i},${i}`).join('\n')}\nonly-one-field\n`)
    const fields = await cli(['tables', 'import', 'shortTable', short])
    expect(fields.code).toBe(1)
    expect(fields.stderr).toContain(`${short}: row 500 (line 501) has 1 fields, the header has 2`)

    expect((await cli(['tables', 'create', 'agesTable', '--schema', '{"age":{"type":"number"}}'])).code).toBe(0)
    const typed = join(work, 'ages.csv')
    await writeFile(typed, `age\n${Array.from({ length: 699 }, (_, i) => String(i)).join('\n')}\nforty\n`)
    const wrong = await cli(['tables', 'import', 'agesTable', typed])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain('row 700, column "age": expected a number, received "forty"')
  })

  it('2. npm run build writes the stamps the launcher checks, and an interrupted build resumes where it stopped, never leaving a stamp claiming success', async () => {
    const { mkdir, readFile, utimes, writeFile } = await import('node:fs/promises')
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts['build']).toMatch(/^node scripts\/build-stamp\.mjs clear && .*&& node scripts\/build-stamp\.mjs botshelf && .*&& node scripts\/build-stamp\.mjs botshelf-server$/)
    type Pkg = { name: string; output: string }
    const stamps = (await import(join(root, 'scripts/build-stamp.mjs'))) as {
      isUpToDate(root: string): boolean
      writeBuildStamp(root: string, name?: string): void
      clearBuildStamp(root: string, name?: string): void
      buildStalePackages(root: string, compile: (pkg: Pkg) => boolean): boolean
    }
    // A checkout in miniature: sources and build settings from a minute ago.
    const tree = join(work, 'checkout')
    for (const dir of ['src', 'server/src', 'dist', 'server/dist/bundle']) await mkdir(join(tree, dir), { recursive: true })
    const past = new Date(Date.now() - 60_000)
    for (const file of ['src/a.ts', 'server/src/b.ts', 'tsconfig.build.json', 'server/tsconfig.build.json']) {
      await writeFile(join(tree, file), '')
      await utimes(join(tree, file), past, past)
    }
    const compiled: string[] = []
    // A build that Ctrl-C stops in the service package, after botshelf built.
    const interrupted = (built: Pkg): boolean => {
      compiled.push(built.name)
      if (built.name === 'botshelf-server') return false
      writeFileSync(built.output, '')
      return true
    }
    const succeeds = (built: Pkg): boolean => {
      compiled.push(built.name)
      writeFileSync(built.output, '')
      return true
    }
    expect(stamps.isUpToDate(tree)).toBe(false)
    expect(stamps.buildStalePackages(tree, interrupted)).toBe(false)
    expect(stamps.isUpToDate(tree)).toBe(false)
    // The next call does not start over: botshelf is built, only the service is.
    compiled.length = 0
    expect(stamps.buildStalePackages(tree, succeeds)).toBe(true)
    expect(compiled).toEqual(['botshelf-server'])
    expect(stamps.isUpToDate(tree)).toBe(true)
    compiled.length = 0
    expect(stamps.buildStalePackages(tree, succeeds)).toBe(true)
    expect(compiled).toEqual([])
    // An interrupted rebuild of an up-to-date checkout (npm run build cut short) leaves no stamp claiming success.
    stamps.clearBuildStamp(tree)
    expect(stamps.isUpToDate(tree)).toBe(false)
    stamps.writeBuildStamp(tree, 'botshelf')
    expect(stamps.isUpToDate(tree)).toBe(false)
    stamps.writeBuildStamp(tree, 'botshelf-server')
    expect(stamps.isUpToDate(tree)).toBe(true)
    // A newer source makes its package and the ones after it stale.
    const later = new Date(Date.now() + 60_000)
    await utimes(join(tree, 'src/a.ts'), later, later)
    compiled.length = 0
    expect(stamps.buildStalePackages(tree, succeeds)).toBe(true)
    expect(compiled).toEqual(['botshelf', 'botshelf-server'])
  })

  it('10. a file has one size in the CLI and in the console (20 MiB is "21.0 MB" in both)', async () => {
    const { formatBytes: cliSize } = await import('../../server/src/cli/output/index.js')
    const { formatBytes: consoleSize } = await import('../../server/src/console/ui/core/format.js')
    for (const bytes of [0, 999, 1000, 1536, 20 * 1024 * 1024, 3_500_000_000]) expect(consoleSize(bytes), String(bytes)).toBe(cliSize(bytes))
    expect(consoleSize(20 * 1024 * 1024)).toBe('21.0 MB')
  })

  it('3. the README tour works as written: the files are put with --index, so the search finds passages', { timeout: 120_000 }, async () => {
    const { cp, readFile } = await import('node:fs/promises')
    const readme = await readFile(join(root, 'README.md'), 'utf8')
    const block = /### A tour from the terminal\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!
    // Each line without its comment; the alias, `serve &` and `login` are the test's own service and connection.
    const lines = block.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== '' && !/^(alias |botshelf serve|botshelf login)/.test(line))
    expect(lines.length).toBeGreaterThanOrEqual(8)
    const here = join(work, 'tour')
    // The tour's ./docs: three pages of this repository's (indexing all of them would only take longer).
    for (const page of ['server.md', 'cli.md', 'operations.md']) await cp(join(root, 'docs', page), join(here, 'docs', page))
    const words = (line: string): string[] => [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!)
    // The tour's relative paths, from the tour's folder (the process keeps its own working directory: the
    // extraction workers resolve their loader from it).
    const local = (arg: string): string => (arg.startsWith('./') || /\.(csv|json)$/.test(arg) ? join(here, arg) : arg)
    {
      for (const line of lines) {
        if (!line.startsWith('botshelf ')) {
          await promisify(execFile)('sh', ['-c', line], { cwd: here })
          continue
        }
        const argv = words(line).slice(1).map(local)
        if (argv[0] === 'files' && argv[1] === 'search') {
          // "once indexed": indexing runs in the background; a reader of the tour types the next lines meanwhile.
          for (let waited = 0; ; waited += 100) {
            const listed = JSON.parse((await cli(['files', 'ls', '--prefix', 'docs/', '--json'])).stdout) as Array<{ status: string }>
            if (listed.every((file) => !file.status.startsWith('indexing_') || file.status === 'indexing_completed' || file.status === 'indexing_failed')) break
            if (waited > 90_000) throw new Error(`indexing did not finish: ${JSON.stringify(listed.map((file) => file.status))}`)
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
        const result = await cli(argv)
        expect(result.code, `${line}\n${result.stderr}`).toBe(0)
        if (argv[1] === 'search') {
          // Passages, not only a header: at least one line names a docs/ file.
          expect(result.stdout.split('\n').filter((row) => row.includes('docs/')).length, result.stdout).toBeGreaterThan(0)
        }
        if (argv[1] === 'find') expect(result.stdout).toContain('Ada')
      }
    }
    const listed = JSON.parse((await cli(['files', 'ls', '--prefix', 'docs/', '--json'])).stdout) as Array<{ status: string }>
    expect(new Set(listed.map((file) => file.status))).toEqual(new Set(['indexing_completed']))
  })

  it('11 (part). the console page names an empty icon, so browsers stop asking /favicon.ico (a 404 on every load)', async () => {
    const { readFile } = await import('node:fs/promises')
    const page = await readFile(join(root, 'server/src/console/ui/page.html'), 'utf8')
    expect(page).toContain('<link rel="icon" href="data:," />')
    // The console's content security policy lets a data: image through.
    const served = await service.request('GET', '/console/', { token: null, botId: null })
    expect(served.status).toBe(200)
    expect(await served.text).toContain('rel="icon"')
    expect(served.headers.get('content-security-policy')).toMatch(/img-src [^;]*data:/)
  })
})
