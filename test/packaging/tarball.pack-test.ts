import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `npm run test:pack`: what a new machine does with the package. `npm pack` (which builds), then `npm install` of
// the tarball into an empty folder, taking dependencies from npm's cache first and the registry for the rest, then
// the installed `botshelf` command and entries.

const root = fileURLToPath(new URL('../../', import.meta.url))
let work: string
let app: string

function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 15 * 60_000, env: { ...process.env, npm_config_update_notifier: 'false' } })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'botshelf-tarball-'))
  const packed = npm(['pack', '--pack-destination', work], root)
  expect(packed.status, packed.output).toBe(0)
  const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'))!
  app = join(work, 'app')
  await mkdir(app)
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', version: '1.0.0', private: true }))
  const installed = npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, tarball)], app)
  expect(installed.status, installed.output).toBe(0)
})

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true })
})

describe('the npm pack tarball on a fresh folder', () => {
  it('installs a botshelf command that prints its help', () => {
    const help = spawnSync(join(app, 'node_modules', '.bin', 'botshelf'), ['--help'], { cwd: app, encoding: 'utf8' })
    expect(help.status, help.stderr).toBe(0)
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

  it('loads its entries with require() and import from the installed package', () => {
    const required = spawnSync(process.execPath, ['-e', "const { Client } = require('botshelf/client'); const { createApp } = require('botshelf/server'); console.log(typeof Client, typeof createApp)"], { cwd: app, encoding: 'utf8' })
    expect(required.stdout.trim(), required.stderr).toBe('function function')
    const imported = spawnSync(process.execPath, ['--input-type=module', '-e', "import { createRuntime } from 'botshelf'; import { createTestBot } from 'botshelf/testing'; console.log(typeof createRuntime, typeof createTestBot)"], { cwd: app, encoding: 'utf8' })
    expect(imported.stdout.trim(), imported.stderr).toBe('function function')
  })
})
