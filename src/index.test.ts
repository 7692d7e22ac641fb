import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
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

/** Our source files, tests excluded: enough for the checker to follow every re-export of the entries. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every name an entry exports, types included, as the type checker sees it through `export *` and re-exports. */
function exportedNames(entries: string[]): Map<string, string[]> {
  // noResolve/noLib: our own files only; node_modules and lib types are not needed to list export names.
  const program = ts.createProgram(sourceFiles(join(root, 'src')), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noResolve: true,
    noLib: true,
    types: [],
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  return new Map(
    entries.map((entry) => {
      const sourceFile = program.getSourceFile(join(root, entry))
      const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile)
      if (!moduleSymbol) throw new Error(`${entry} is not a module of the program`)
      return [entry, checker.getExportsOfModule(moduleSymbol).map((symbol) => symbol.getName())]
    }),
  )
}

/**
 * The public names of the entries, locked. A change to this snapshot is a change of the public API: review it (a name
 * that vanished breaks users), then accept it with `npx vitest run src/index.test.ts -u`. The service is another package (`botshelf-server`).
 */
describe('public export names', () => {
  const entries = { botshelf: 'src/index.ts', 'botshelf/client': 'src/client/index.ts', 'botshelf/testing': 'src/testing/index.ts' }
  const names = exportedNames(Object.values(entries))

  for (const [entryName, path] of Object.entries(entries)) {
    it(`of ${entryName} stay as they are: values (runtime exports) and type-only names`, async () => {
      const values = Object.keys((await import(pathToFileURL(join(root, path)).href)) as object).sort()
      const all = names.get(path)!
      // Every runtime export is also seen by the checker; what is left are the type-only names.
      expect(values.filter((name) => !all.includes(name))).toEqual([])
      const types = all.filter((name) => !values.includes(name)).sort()
      expect({ values, types }).toMatchSnapshot()
    })
  }
})
