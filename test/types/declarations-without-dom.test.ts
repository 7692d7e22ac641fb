/**
 * The published declarations must compile in a strict Node project: `lib` without DOM, `types: ["node"]`,
 * `skipLibCheck: false` and `exactOptionalPropertyTypes: true`. A DOM-only global in a .d.ts (CryptoKey,
 * BufferSource, ...) or an optional property that is not written for exact optional types breaks such projects.
 * Runs against dist/ (`npm test` builds first). The tarball test (test/packaging/tarball.pack-test.ts) does the
 * same from installed packages.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(join(tmpdir(), 'botshelf-consumer-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const lightEntries: Record<string, string> = {
  botshelf: 'dist/index.d.ts',
  'botshelf/client': 'dist/client/index.d.ts',
  'botshelf/testing': 'dist/testing/index.d.ts',
  'botshelf/api': 'dist/api/index.d.ts',
}
const allEntries: Record<string, string> = { ...lightEntries, 'botshelf-server': 'server/dist/index.d.ts' }

// The light package's imports of code that bot projects write (what a user's tsc reads through botshelf alone).
const lightConsumer = [
  "import { createWebhookHandler, createRuntime, parseEvent } from 'botshelf'",
  "import { Client, isApiError } from 'botshelf/client'",
  "import { createTestBot, fakeTextEvent, createFakeClock, createMemoryLogger } from 'botshelf/testing'",
  'export const used = [createWebhookHandler, createRuntime, parseEvent, Client, isApiError, createTestBot, fakeTextEvent, createFakeClock, createMemoryLogger]',
]

/** Type-checks one consumer file against the built declarations; gives the diagnostics in our files and every file read. */
function compile(name: string, lines: string[], entries: Record<string, string>): { diagnostics: string[]; files: string[] } {
  for (const file of Object.values(entries)) expect(existsSync(join(root, file)), `${file} is missing: run npm run build`).toBe(true)
  const consumer = join(folder, `${name}.ts`)
  writeFileSync(consumer, lines.join('\n'))
  const program = ts.createProgram([consumer], {
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    paths: Object.fromEntries(Object.entries(entries).map(([entry, file]) => [entry, [join(root, file)]])),
  })
  // Only our files are checked (every declaration of dist/ and server/dist/ the consumer reaches, and the consumer):
  // the checker still reads the dependencies' declarations they use, but checking every file of zod or @types/node
  // in full took ~20 s a program and their diagnostics are not ours to assert.
  const ours = (fileName: string): boolean => fileName.startsWith(join(root, 'dist')) || fileName.startsWith(join(root, 'server/dist')) || fileName === consumer
  const checked = program.getSourceFiles().filter((file) => ours(file.fileName))
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ]
    .filter((d) => !d.file || ours(d.file.fileName))
    .map((d) => `${d.file ? `${d.file.fileName.replace(root + '/', '')}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
  return { diagnostics, files: program.getSourceFiles().map((f) => f.fileName) }
}

describe('the published declarations', () => {
  it('compile in a Node project without the DOM lib, with skipLibCheck off and exact optional property types', () => {
    const { diagnostics } = compile('consumer', [...lightConsumer, "import { createApp } from 'botshelf-server'", 'export const server = createApp'], allEntries)
    expect(diagnostics).toEqual([])
  }, 180_000)

  it('of botshelf alone compile without reaching a declaration of the service or of its dependencies', () => {
    const { diagnostics, files } = compile('light-consumer', lightConsumer, lightEntries)
    expect(diagnostics).toEqual([])
    // node_modules/botshelf-server links to server/: a declaration of botshelf that named the service would load it.
    expect(files.filter((file) => file.startsWith(join(root, 'server')))).toEqual([])
    // Nor one of the service's dependencies (better-sqlite3's types were the TS7016 of a strict consumer).
    const serviceDependencies = Object.keys((JSON.parse(readFileSync(join(root, 'server/package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
    const packages = new Set(files.flatMap((file) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1] ?? []))
    expect([...packages].filter((name) => name !== 'botshelf' && serviceDependencies.includes(name))).toEqual([])
  }, 180_000)
})
