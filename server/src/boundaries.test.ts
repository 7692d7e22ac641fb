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

/** Every module specifier a file imports or re-exports (static and dynamic), resolved when relative. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]!)
  return specifiers.map((specifier) => (specifier.startsWith('.') ? relative(root, resolve(file, '..', specifier)) : specifier))
}

describe('dependency direction', () => {
  it('the HTTP layer and the routes import no storage adapter: only the ports in src/store', () => {
    const layers = ['http', 'files', 'tables', 'admin', 'console', 'usage', 'metrics'].map((folder) => join(root, 'src', folder))
    const offenders = layers.flatMap(sourceFiles).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/store/sqlite') || target === 'better-sqlite3' || target.startsWith('better-sqlite3/'))
        .map((target) => `${relative(root, file)} → ${target}`),
    )
    expect(offenders).toEqual([])
  })

  it('the ports (src/store outside its adapter folders) import no adapter either', () => {
    const adapters = new Set(['sqlite'])
    const portFiles = sourceFiles(join(root, 'src/store')).filter((file) => {
      const [folder] = relative(join(root, 'src/store'), file).split('/')
      return !adapters.has(folder!) && !file.endsWith('open-backend.ts')
    })
    const offenders = portFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/store/sqlite') || target.startsWith('better-sqlite3'))
        .map((target) => `${relative(root, file)} → ${target}`),
    )
    expect(offenders).toEqual([])
  })

  it('finds imports the way the check relies on (a check that sees nothing proves nothing)', () => {
    const app = importsOf(join(root, 'src/http/app.ts'))
    expect(app).toContain('src/store/open-backend.js')
    expect(app).toContain('hono')
  })
})
