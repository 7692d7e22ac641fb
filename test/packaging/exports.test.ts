import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// The export map works for import and for require() (Node >= 20.19 loads ES modules with require), from the
// built package (dist/), resolved by its own name the way a dependent resolves it.

const root = fileURLToPath(new URL('../../', import.meta.url))
// botshelf's entries and the service package's (a workspace, linked under node_modules/botshelf-server).
const entries = ['botshelf', 'botshelf/client', 'botshelf/testing', 'botshelf/api', 'botshelf-server']

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 120_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

beforeAll(() => {
  // Builds both packages' dist/ when missing or older than their sources (the checkout's way to run the CLI does it).
  const built = node(['scripts/botshelf.mjs', '--version'])
  expect(built.status, built.stderr).toBe(0)
}, 240_000)

describe('package exports', () => {
  it.each(entries)('%s loads with require() and with import, to the same exports', (entry) => {
    const required = node(['-e', `console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()))`])
    expect(required.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED')
    expect(required.status, required.stderr).toBe(0)
    const imported = node(['--input-type=module', '-e', `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).sort()))`])
    expect(imported.status, imported.stderr).toBe(0)
    const keys = JSON.parse(required.stdout) as string[]
    expect(keys.length).toBeGreaterThan(5)
    expect(keys).toEqual(JSON.parse(imported.stdout))
  })

  it('require() and import give the very same classes (one module instance, so instanceof holds across both)', () => {
    const same = node(['-e', `import('botshelf/client').then((m) => console.log(m.Client === require('botshelf/client').Client && m.ApiError === require('botshelf/client').ApiError))`])
    expect(same.status, same.stderr).toBe(0)
    expect(same.stdout.trim()).toBe('true')
  })
})
