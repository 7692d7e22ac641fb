import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const entry = join(root, 'dist', 'index.js')
const work = mkdtempSync(join(tmpdir(), 'botshelf-entry-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/**
 * Imports the built `botshelf` entry in a fresh Node process with a module-resolution hook that records every
 * module loaded, and a watch on `process.dlopen` (how native addons load).
 */
function loadEntry(): { modules: string[]; nativeAddons: string[]; exportNames: string[] } {
  const log = join(work, 'modules.log')
  writeFileSync(log, '')
  const hooks = join(work, 'hooks.mjs')
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n')
  return result
}`,
  )
  const script = `
import { register } from 'node:module'
register(${JSON.stringify(pathToFileURL(hooks).href)})
const addons = []
const dlopen = process.dlopen
process.dlopen = (module, file, ...rest) => { addons.push(file); return dlopen(module, file, ...rest) }
const exported = await import(${JSON.stringify(pathToFileURL(entry).href)})
console.log(JSON.stringify({ addons, names: Object.keys(exported) }))`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
  const { addons, names } = JSON.parse(output.trim().split('\n').at(-1)!) as { addons: string[]; names: string[] }
  const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean)
  return { modules, nativeAddons: addons, exportNames: names }
}

describe('the botshelf entry', () => {
  it('is built (run `npm run build` first)', () => {
    expect(existsSync(entry), `${entry} is missing: run npm run build`).toBe(true)
  })

  it('loads no server code, no SQLite, no Hono and no native module', () => {
    const { modules, nativeAddons, exportNames } = loadEntry()
    expect(exportNames).toEqual(expect.arrayContaining(['parseEvent', 'createRuntime', 'createWebhookHandler', 'EventSchema']))
    expect(nativeAddons).toEqual([])
    expect(modules.filter((url) => url.endsWith('.node'))).toEqual([])
    const ours = modules.filter((url) => url.includes('/dist/')).map((url) => url.slice(url.indexOf('/dist/') + 6))
    expect(ours.length).toBeGreaterThan(10)
    const forbiddenFolders = ours.filter((path) => /^(server|store|blobs|cli|search|testing)\//.test(path))
    expect(forbiddenFolders).toEqual([])
    const packages = new Set(
      modules.filter((url) => url.includes('/node_modules/')).map((url) => url.split('/node_modules/').at(-1)!.split('/')[0]!),
    )
    expect(packages.has('zod')).toBe(true)
    const serverPackages = [...packages].filter((name) => ['better-sqlite3', 'bindings', 'hono', '@hono'].includes(name))
    expect(serverPackages).toEqual([])
    const builtins = modules.filter((url) => url.startsWith('node:'))
    expect(builtins).toEqual([])
  })
})
