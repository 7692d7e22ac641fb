import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `npm run test:pack`: what a new machine does with the two packages. `npm pack` of each (the root's `prepare`
// builds both), then `npm install` of the tarballs into empty folders, taking dependencies from npm's cache first
// and the registry for the rest: botshelf alone (what bot code installs), then botshelf with botshelf-server (what
// a bot's tests and a service host install).

const root = fileURLToPath(new URL('../../', import.meta.url))
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
const lightEntries = ['botshelf', 'botshelf/client', 'botshelf/testing', 'botshelf/api']
let work: string
let lightTarball: string
let serviceTarball: string

function run(command: string, args: string[], cwd: string): { status: number | null; output: string; stdout: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 15 * 60_000, env: { ...process.env, npm_config_update_notifier: 'false' } })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}`, stdout: result.stdout }
}

/** `npm pack` of the package in `folder` into the work folder; gives the tarball's path. */
function pack(folder: string): string {
  const before = new Set(readdirSync(work))
  const packed = run('npm', ['pack', '--pack-destination', work], folder)
  expect(packed.status, packed.output).toBe(0)
  const made = readdirSync(work).filter((file) => file.endsWith('.tgz') && !before.has(file))
  expect(made).toHaveLength(1)
  return join(work, made[0]!)
}

/** A fresh folder with an empty project, the tarballs installed in one `npm install`; gives the folder. */
async function installFresh(name: string, tarballs: string[]): Promise<string> {
  const app = join(work, name)
  await mkdir(app)
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: `fresh-${name}`, version: '1.0.0', private: true, type: 'module' }))
  const started = performance.now()
  const installed = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], app)
  const seconds = (performance.now() - started) / 1000
  expect(installed.status, installed.output).toBe(0)
  console.log(`npm install of ${tarballs.map((t) => t.slice(work.length + 1)).join(' + ')}: ${seconds.toFixed(1)} s, ${installedPackages(app).length} packages`)
  return app
}

interface InstalledPackage {
  name: string
  folder: string
  manifest: { scripts?: Record<string, string> }
}

/** Every package under the folder's node_modules, nested ones included. */
function installedPackages(app: string): InstalledPackage[] {
  const found: InstalledPackage[] = []
  const visit = (nodeModules: string): void => {
    if (!existsSync(nodeModules)) return
    for (const entry of readdirSync(nodeModules)) {
      if (entry.startsWith('.')) continue
      const names = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((inner) => `${entry}/${inner}`) : [entry]
      for (const name of names) {
        const folder = join(nodeModules, name)
        const manifest = join(folder, 'package.json')
        if (existsSync(manifest)) found.push({ name, folder, manifest: JSON.parse(readFileSync(manifest, 'utf8')) as InstalledPackage['manifest'] })
        visit(join(folder, 'node_modules'))
      }
    }
  }
  visit(join(app, 'node_modules'))
  return found
}

/** What an install would run: the lifecycle scripts npm runs for a registry package, and node-gyp's implicit one. */
function installScripts(app: string): string[] {
  return installedPackages(app).flatMap(({ name, folder, manifest }) => [
    ...['preinstall', 'install', 'postinstall'].filter((script) => manifest.scripts?.[script]).map((script) => `${name}: ${script}`),
    ...(existsSync(join(folder, 'binding.gyp')) ? [`${name}: binding.gyp`] : []),
  ])
}

/** Runs an ES module script in the folder. */
function node(app: string, source: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: app, encoding: 'utf8', timeout: 120_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Each entry loads with require() and with import, to the same exports. */
function expectEntriesLoad(app: string, entries: string[]): void {
  for (const entry of entries) {
    const required = spawnSync(process.execPath, ['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()))`], { cwd: app, encoding: 'utf8' })
    expect(required.status, `require(${entry}): ${required.stderr}`).toBe(0)
    const imported = node(app, `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).sort()))`)
    expect(imported.status, `import(${entry}): ${imported.stderr}`).toBe(0)
    const keys = JSON.parse(required.stdout) as string[]
    expect(keys.length, entry).toBeGreaterThan(3)
    expect(keys, entry).toEqual(JSON.parse(imported.stdout))
  }
}

/**
 * A strict TypeScript project of the folder importing the given lines type-checks against the installed
 * declarations. `typeRoots` gives @types/node where the install brought none (botshelf alone).
 */
async function expectStrictConsumerCompiles(app: string, lines: string[], typeRoots?: string[]): Promise<void> {
  await writeFile(join(app, 'consumer.ts'), lines.join('\n') + '\n')
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2023'],
    types: ['node'],
    noEmit: true,
    ...(typeRoots ? { typeRoots } : {}),
  }
  await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }))
  const checked = run(process.execPath, [tsc, '-p', 'tsconfig.json'], app)
  expect(checked.output.trim()).toBe('')
  expect(checked.status).toBe(0)
}

/** The source and declaration maps of an installed package, and every `sources` entry that names no file there. */
function mapSources(packageFolder: string): { maps: number; unresolved: string[] } {
  const missing: string[] = []
  let maps = 0
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (entry.name.endsWith('.map')) {
        maps += 1
        const map = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: Array<string | null> }
        map.sources.forEach((source, i) => {
          if (map.sourcesContent?.[i]) return
          const file = resolve(dirname(path), map.sourceRoot ?? '', source)
          if (!existsSync(file) || statSync(file).size === 0) missing.push(`${path.slice(packageFolder.length + 1)} -> ${source}`)
        })
      }
    }
  }
  visit(join(packageFolder, 'dist'))
  return { maps, unresolved: missing }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'botshelf-tarball-'))
  lightTarball = pack(root)
  serviceTarball = pack(join(root, 'server'))
})

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('botshelf alone, installed from its tarball into a fresh folder', () => {
  let app: string
  beforeAll(async () => {
    app = await installFresh('light', [lightTarball])
  })

  it('installs at most 10 packages (zod, date-fns, type-fest), none with an install script', () => {
    const names = installedPackages(app).map((p) => p.name)
    expect(names.length, names.join(', ')).toBeLessThanOrEqual(10)
    expect(names).toEqual(expect.arrayContaining(['botshelf', 'zod', 'date-fns', 'type-fest']))
    expect(names).not.toContain('botshelf-server')
    expect(installScripts(app)).toEqual([])
  })

  it('loads each entry with require() and with import', () => {
    expectEntriesLoad(app, lightEntries)
  })

  it('fails createTestBot at once with an error that names the package to add', () => {
    const started = performance.now()
    const result = node(app, "import { createTestBot } from 'botshelf/testing'\ntry { await createTestBot(); console.log('started') } catch (error) { console.log(error.message) }")
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout).toContain('npm install --save-dev botshelf-server')
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('type-checks a strict consumer of botshelf, botshelf/client and botshelf/testing against the installed declarations', async () => {
    await expectStrictConsumerCompiles(
      app,
      [
        "import { createRuntime, createWebhookHandler, parseEvent } from 'botshelf'",
        "import { Client, isApiError } from 'botshelf/client'",
        "import { createFakeClock, createMemoryLogger, createTestBot, fakeTextEvent } from 'botshelf/testing'",
        'export const used = [createRuntime, createWebhookHandler, parseEvent, Client, isApiError, createFakeClock, createMemoryLogger, createTestBot, fakeTextEvent]',
      ],
      [join(root, 'node_modules', '@types')],
    )
  })

  it('ships the sources its source and declaration maps point at', () => {
    const { maps, unresolved } = mapSources(join(app, 'node_modules', 'botshelf'))
    expect(maps).toBeGreaterThan(10)
    expect(unresolved).toEqual([])
  })
})

describe('botshelf with botshelf-server, installed from their tarballs in one npm install', () => {
  let app: string
  beforeAll(async () => {
    app = await installFresh('service', [lightTarball, serviceTarball])
  })

  it('installs a botshelf command that prints its help', () => {
    const help = run('npx', ['--no-install', 'botshelf', '--help'], app)
    expect(help.status, help.output).toBe(0)
    expect(help.stdout).toContain('Usage: botshelf <command>')
    expect(help.stdout).toContain('files    ls, put, get')
  })

  it('serves: the banner, /health, and a graceful stop', async () => {
    const child = spawn(join(app, 'node_modules', '.bin', 'botshelf'), ['serve', '--port', '0', '--data', join(app, 'data')], { cwd: app })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    const deadline = Date.now() + 60_000
    while (!/listening on (\S+)/.test(stderr) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100))
    const url = /listening on (\S+)/.exec(stderr)?.[1]
    expect(url, stderr).toBeDefined()
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('runs createTestBot against the installed service', () => {
    const result = node(
      app,
      [
        "import { createTestBot } from 'botshelf/testing'",
        'const bot = await createTestBot()',
        "await bot.client.uploadFile({ key: 'notes/a.txt', content: 'hello' })",
        'const { files } = await bot.client.listFiles({})',
        'console.log(files.map((file) => file.key).join(","))',
        'await bot.close()',
      ].join('\n'),
    )
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.trim()).toBe('notes/a.txt')
  })

  it('loads each entry of both packages with require() and with import', () => {
    expectEntriesLoad(app, [...lightEntries, 'botshelf-server'])
  })

  it('carries the int8 word vectors and not the word-vector package they are built from', () => {
    const vectors = join(app, 'node_modules', 'botshelf-server', 'dist', 'word-vectors', 'wink-sg100-int8.bin')
    expect(existsSync(vectors)).toBe(true)
    expect(statSync(vectors).size).toBeGreaterThan(1_000_000)
    expect(installedPackages(app).map((p) => p.name).filter((name) => name.startsWith('wink-'))).toEqual([])
  })

  it('type-checks a strict consumer of both packages against the installed declarations', async () => {
    await expectStrictConsumerCompiles(app, [
      "import { createRuntime } from 'botshelf'",
      "import { Client } from 'botshelf/client'",
      "import { createTestBot } from 'botshelf/testing'",
      "import { createApp } from 'botshelf-server'",
      'export const used = [createRuntime, Client, createTestBot, createApp]',
    ])
  })

  it('ships the sources its source and declaration maps point at', () => {
    const { maps, unresolved } = mapSources(join(app, 'node_modules', 'botshelf-server'))
    expect(maps).toBeGreaterThan(10)
    expect(unresolved).toEqual([])
  })
})
