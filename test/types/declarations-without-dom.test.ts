/**
 * The published declarations must compile in a plain Node project: `lib` without DOM, `types: ["node"]` and
 * `skipLibCheck: false`. A DOM-only global in a .d.ts (CryptoKey, BufferSource, ...) breaks such projects.
 * Runs against dist/ (`npm test` builds first).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const folder = mkdtempSync(join(tmpdir(), 'botshelf-consumer-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const entries: Record<string, string> = {
  botshelf: 'dist/index.d.ts',
  'botshelf/client': 'dist/client/index.d.ts',
  'botshelf/testing': 'dist/testing/index.d.ts',
  'botshelf/api': 'dist/api/index.d.ts',
  'botshelf-server': 'server/dist/index.d.ts',
}

describe('the published declarations', () => {
  it('compile in a Node project without the DOM lib and with skipLibCheck off', () => {
    for (const file of Object.values(entries)) expect(existsSync(join(root, file)), `${file} is missing: run npm run build`).toBe(true)
    const consumer = join(folder, 'consumer.ts')
    writeFileSync(
      consumer,
      [
        "import { createWebhookHandler, createRuntime, parseEvent } from 'botshelf'",
        "import { Client, isApiError } from 'botshelf/client'",
        "import { createApp } from 'botshelf-server'",
        "import { createTestBot, fakeTextEvent } from 'botshelf/testing'",
        'export const used = [createWebhookHandler, createRuntime, parseEvent, Client, isApiError, createApp, createTestBot, fakeTextEvent]',
      ].join('\n'),
    )
    const program = ts.createProgram([consumer], {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(root, 'node_modules/@types')],
      paths: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, [join(root, file)]])),
    })
    const ours = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => !d.file || d.file.fileName.startsWith(join(root, 'dist')) || d.file.fileName.startsWith(join(root, 'server/dist')) || d.file.fileName === consumer)
      .map((d) => `${d.file ? `${d.file.fileName.replace(root + '/', '')}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
    expect(ours).toEqual([])
  })
})
