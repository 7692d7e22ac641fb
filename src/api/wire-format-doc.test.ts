import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorTypes } from './error-types.js'
import { filesOperations } from './files/operations.js'
import { tablesOperations } from './tables/operations.js'

// Code cites docs/wire-format.md by section ("in the order of docs/wire-format.md §3"): the tables there must
// keep saying what the code does.
const doc = readFileSync(new URL('../../docs/wire-format.md', import.meta.url), 'utf8')

function section(number: number): string {
  const start = doc.indexOf(`\n## ${number}. `)
  if (start < 0) throw new Error(`docs/wire-format.md has no section ${number}`)
  const end = doc.indexOf('\n## ', start + 1)
  return doc.slice(start, end < 0 ? undefined : end)
}

/** The cells of a section's table rows whose first cell is code (`name`), trimmed. */
function codeRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()))
    .filter((cells) => cells.some((cell) => /^`[A-Za-z]+`$/.test(cell)))
}

describe('docs/wire-format.md', () => {
  it('§3 lists the error types of src/api/error-types.ts, in order, with their status', () => {
    const rows = codeRows(section(3)).map(([, type, status]) => [type!.replaceAll('`', ''), Number(status)])
    expect(rows).toEqual(Object.entries(errorTypes).map(([type, { code }]) => [type, code]))
  })

  it('§7 and §13 list the Files and Tables operations in the order of filesOperations and tablesOperations', () => {
    const names = (n: number) => codeRows(section(n)).map(([name]) => name!.replaceAll('`', ''))
    expect(names(7)).toEqual(Object.keys(filesOperations))
    expect(names(13)).toEqual(Object.keys(tablesOperations))
  })

  it('§7 and §13 give each operation its method and path', () => {
    const routes = (n: number) => codeRows(section(n)).map(([, route]) => route!.match(/^`(\w+) ([^`]+)`/)?.slice(1, 3))
    const expected = (ops: Record<string, { method: string; path: string }>) => Object.values(ops).map((op) => [op.method, op.path])
    expect(routes(7)).toEqual(expected(filesOperations))
    expect(routes(13)).toEqual(expected(tablesOperations))
  })
})
