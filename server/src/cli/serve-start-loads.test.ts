import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const checkout = fileURLToPath(new URL('../../../', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'botshelf-start-loads-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/**
 * What only some requests need, loaded on first use (decisions 1304, 1475, 1480, 1481): extraction and the canvas
 * PDF pages are rendered on, the S3 SDK, PostgreSQL, the code sandbox, the other commands, the RE2 engine (a
 * `$regex` filter or a column pattern), the CSV/JSON transfer codecs (a table import or export job), the command
 * failure report and the client it names; and nothing of the `botshelf` package but its wire (`api/`) and the small
 * shared modules: not its main entry, the bot runtime, events, inbox or client.
 */
const loadedOnFirstUse = /\/node_modules\/(@aws-sdk\/|pdfjs-dist\/|@napi-rs\/canvas|mammoth\/|exceljs\/|@jitl\/quickjs|quickjs-emscripten-core\/|postgres\/|re2js\/)|\/store\/postgres\/|\/transfer\/(index|decode-import|encode-export|csv)\.js$|\/cli\/(export|import|backup|restore|reindex|migrate|failure)\.js$/
/** The parts of the `botshelf` package (its built `dist/`) a serving process must not load. */
const runtimeParts = /^(index\.js$|runtime\/|event\/|inbox\/|client\/|testing\/)/

/** Every module a `botshelf serve` started from `command` resolves until its banner (a resolve hook writes them on stderr). */
async function resolvedAtStart(command: string): Promise<string[]> {
  const hooks = `import { writeSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  writeSync(2, 'resolved ' + result.url + '\\n')
  return result
}`
  const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}))`
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, join(checkout, command), 'serve', '--port', '0', '--data', join(folder, command.replaceAll('/', '-')), '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (/botshelf is listening/.test(stderr)) finish(resolve)
      else if (child.exitCode !== null) finish(() => reject(new Error(stderr)))
    }, 20)
    const finish = (then: () => void): void => {
      clearInterval(check)
      then()
    }
  })
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
  return stderr.split('\n').filter((line) => line.startsWith('resolved ')).map((line) => line.slice('resolved '.length))
}

describe('botshelf serve at start', () => {
  it('loads neither extraction, the S3 SDK, PostgreSQL, the code sandbox nor the other commands (the built CLI)', async () => {
    const resolved = await resolvedAtStart('server/dist/cli/bin.js')
    // A check that sees nothing proves nothing: the hook sees what the start does load.
    expect(resolved.some((url) => url.includes('/node_modules/hono/'))).toBe(true)
    expect(resolved.some((url) => url.endsWith('/cli/serve.js'))).toBe(true)
    expect(resolved.filter((url) => loadedOnFirstUse.test(url))).toEqual([])
    const packageDist = pathToFileURL(join(checkout, 'dist/')).href
    expect(resolved.some((url) => url.startsWith(`${packageDist}api/`))).toBe(true)
    expect(resolved.filter((url) => url.startsWith(packageDist) && runtimeParts.test(url.slice(packageDist.length)))).toEqual([])
  }, 60_000)

  it('loads none of the libraries left outside the bundle for first use (the bundled command, decision 1486)', async () => {
    const resolved = await resolvedAtStart('server/dist/bundle/bin.js')
    const bundle = pathToFileURL(join(checkout, 'server/dist/bundle/')).href
    expect(resolved.filter((url) => url.startsWith(bundle)).length).toBeGreaterThan(3)
    expect(resolved.some((url) => url.includes('/node_modules/better-sqlite3/'))).toBe(true)
    expect(resolved.filter((url) => loadedOnFirstUse.test(url))).toEqual([])
    // Its own code and the pure-JavaScript libraries are inside: none is loaded from node_modules or dist/.
    expect(resolved.filter((url) => /\/node_modules\/(hono|zod|@hono)\/|\/server\/dist\/(?!bundle\/)/.test(url))).toEqual([])
  }, 60_000)
})
