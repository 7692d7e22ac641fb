import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { serveHelp } from '../serve.js'
import { renderSettingsDocs } from './render-docs.js'
import { serveSettings } from './serve-settings.js'

const docsPath = fileURLToPath(new URL('../../../../docs/server.md', import.meta.url))

/** The `--flag` names a text lists at the start of an option line (help) or a table cell (docs). */
function flagsOf(text: string, pattern: RegExp): string[] {
  return [...text.matchAll(pattern)].map((match) => match[1]!).filter((flag) => flag !== 'help')
}

describe('the settings of botshelf serve', () => {
  it('are declared once each', () => {
    const flags = serveSettings.map((setting) => setting.flag)
    expect(new Set(flags).size).toBe(flags.length)
  })

  it('docs/server.md shows the option table made from the settings', () => {
    expect(readFileSync(docsPath, 'utf8')).toContain(renderSettingsDocs(serveSettings))
  })

  it('--help and docs/server.md list the same options', () => {
    const docs = readFileSync(docsPath, 'utf8')
    const table = docs.slice(docs.indexOf('| `serve` option |'), docs.indexOf('\n\n', docs.indexOf('| `serve` option |')))
    const inHelp = flagsOf(serveHelp, /^ {2}--([a-z-]+) /gm)
    const inDocs = flagsOf(table, /^\| `--([a-z-]+) /gm)
    expect(inHelp).toEqual(inDocs)
    expect(inHelp).toEqual(serveSettings.map((setting) => setting.flag))
  })
})
