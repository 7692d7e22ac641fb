import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The service package's folder (server/): paths below are relative to it.
const root = fileURLToPath(new URL('..', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

interface ImportEdge {
  /** The module specifier, resolved against the service folder when relative. */
  target: string
  /** How it is imported: `static` loads with the importer, `type` is erased (`import type`, `export type`), `dynamic` is an `import()`. */
  kind: 'static' | 'type' | 'dynamic'
}

/** Every module a file imports or re-exports, static, type-only and dynamic. */
function importEdgesOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8')
  const pattern = /(?:^|\n)\s*(import|export)(\s+type\b)?\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g
  return [...text.matchAll(pattern)].map((m) => {
    const specifier = m[3] ?? m[4]!
    const kind = m[4] !== undefined ? 'dynamic' : m[2] !== undefined ? 'type' : 'static'
    return { target: specifier.startsWith('.') ? relative(root, resolve(file, '..', specifier)) : specifier, kind }
  })
}

/** Every module specifier a file imports or re-exports (static, type-only and dynamic), resolved when relative. */
function importsOf(file: string): string[] {
  return importEdgesOf(file).map((edge) => edge.target)
}

/** The storage adapters: each one's folder and the driver only it may load. */
const adapters = [
  { name: 'sqlite', folder: 'src/store/sqlite/', driver: 'better-sqlite3' },
  { name: 'postgres', folder: 'src/store/postgres/', driver: 'postgres' },
]
/** The composition root: the one file outside the adapters that imports them. */
const compositionRoot = 'src/store/open-backend.ts'

function touchesAdapter(target: string, adapter: (typeof adapters)[number]): boolean {
  return target.startsWith(adapter.folder) || target === adapter.driver || target.startsWith(`${adapter.driver}/`)
}

describe('dependency direction', () => {
  const service = sourceFiles(join(root, 'src'))

  it('no file of the service imports an adapter or its driver, except the composition root', () => {
    const offenders = service
      .filter((file) => relative(root, file) !== compositionRoot && !adapters.some((adapter) => relative(root, file).startsWith(adapter.folder)))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => adapters.some((adapter) => touchesAdapter(target, adapter)))
          .map((target) => `${relative(root, file)} → ${target}`),
      )
    expect(offenders).toEqual([])
  })

  it('an adapter imports no other adapter and no other driver', () => {
    const offenders = adapters.flatMap((adapter) =>
      service
        .filter((file) => relative(root, file).startsWith(adapter.folder))
        .flatMap((file) =>
          importsOf(file)
            .filter((target) => adapters.some((other) => other !== adapter && touchesAdapter(target, other)))
            .map((target) => `${relative(root, file)} → ${target}`),
        ),
    )
    expect(offenders).toEqual([])
  })

  it('the composition root loads the PostgreSQL adapter only when asked (a dynamic import; types are erased)', () => {
    const edges = importEdgesOf(join(root, compositionRoot)).filter((edge) => touchesAdapter(edge.target, adapters[1]!))
    expect(edges.filter((edge) => edge.kind === 'static')).toEqual([])
    expect(edges).toContainEqual({ target: 'src/store/postgres/backend.js', kind: 'dynamic' })
  })

  it('importing botshelf-server and opening SQLite loads neither the PostgreSQL adapter nor its driver (the built entry)', () => {
    // A resolve hook (in the loader thread) reports every module of the PostgreSQL adapter or driver on stderr;
    // opening PostgreSQL afterwards, with a URL that fails, shows the hook does see them.
    const hooks = `import { writeSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  if (/\\/node_modules\\/postgres\\/|\\/store\\/postgres\\//.test(result.url)) writeSync(2, 'loaded ' + result.url + '\\n')
  return result
}`
    const script = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))
const server = await import('botshelf-server')
const backend = await server.openBackend({ memory: true })
await backend.close()
process.stderr.write('sqlite done\\n')
await server.openPostgresBackend({ url: 'not a url' }).catch(() => {})
`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(root, '..'), encoding: 'utf8' })
    expect(child.status, child.stderr).toBe(0)
    const [beforeSqliteDone, afterSqliteDone] = run(child.stderr)
    expect(beforeSqliteDone.filter((line) => line.startsWith('loaded '))).toEqual([])
    expect(afterSqliteDone.some((line) => line.includes('/store/postgres/backend.js'))).toBe(true)
  })

  it('finds imports the way the check relies on (a check that sees nothing proves nothing)', () => {
    const app = importsOf(join(root, 'src/http/app.ts'))
    expect(app).toContain('src/store/open-backend.js')
    expect(app).toContain('hono')
    expect(importsOf(join(root, 'src/store/sqlite/connect.ts'))).toContain('better-sqlite3')
    expect(importEdgesOf(join(root, compositionRoot))).toContainEqual({ target: 'src/store/sqlite/backend.js', kind: 'static' })
  })
})

/** The child's stderr lines, split at the line that ends its SQLite part. */
function run(stderr: string): [string[], string[]] {
  const lines = stderr.split('\n')
  const done = lines.indexOf('sqlite done')
  return done === -1 ? [lines, []] : [lines.slice(0, done), lines.slice(done + 1)]
}
