import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const folder = import.meta.dirname

/** Relative imports and re-exports of a module (type-only ones too: a type cycle still couples the two files). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm)].map((match) =>
    resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')),
  )
}

/** Every import cycle among the given modules, each written as `a.ts -> b.ts -> a.ts`. */
function findCycles(files: string[], base: string): string[] {
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]))
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    path.push(file)
    for (const target of edges.get(file) ?? []) {
      if (state.get(target) === 'open') {
        cycles.push([...path.slice(path.indexOf(target)), target].map((f) => relative(base, f)).join(' -> '))
      } else if (!state.has(target)) visit(target)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  return cycles
}

const modules = readdirSync(folder)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  .map((name) => join(folder, name))

describe('src/event modules', () => {
  it('import each other without cycles', () => {
    expect(modules.length).toBeGreaterThan(5)
    expect(findCycles(modules, folder)).toEqual([])
  })

  it('finds a cycle made of a value import one way and a type-only import back', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'botshelf-cycles-'))
    try {
      const files = { 'a.ts': "import { b } from './b.js'\n", 'b.ts': "import type { A } from './a.js'\nexport const b = 1\n", 'c.ts': "export { b } from './b.js'\n" }
      for (const [name, text] of Object.entries(files)) writeFileSync(join(fixture, name), text)
      expect(findCycles(Object.keys(files).map((name) => join(fixture, name)), fixture)).toEqual(['a.ts -> b.ts -> a.ts'])
    } finally {
      rmSync(fixture, { recursive: true, force: true })
    }
  })
})
