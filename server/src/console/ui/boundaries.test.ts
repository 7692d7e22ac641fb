import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const consoleDir = join(root, 'src/console/ui')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('the console runs in the browser on the public client only', () => {
  it('imports its own files, botshelf client, preact and its stylesheet: no server, store, node built-in or other package', () => {
    const files = sources(consoleDir)
    expect(files.length).toBeGreaterThan(20)
    const offenders: string[] = []
    const seen = new Set<string>()
    for (const file of files) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) {
        const specifier = match[1] ?? match[2] ?? match[3]!
        const target = specifier.startsWith('.') ? relative(root, resolve(file, '..', specifier)) : specifier
        seen.add(target)
        const allowed = target.startsWith('src/console/ui/') || target === 'botshelf/client' || target === 'preact' || target.startsWith('preact/')
        if (!allowed) offenders.push(`${relative(root, file)} → ${specifier}`)
      }
    }
    // A check that sees nothing proves nothing.
    expect([...seen]).toEqual(expect.arrayContaining(['botshelf/client', 'preact', 'preact/hooks', 'src/console/ui/styles.css']))
    expect(offenders).toEqual([])
  })
})
