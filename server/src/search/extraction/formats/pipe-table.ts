import type { TableBlock } from '../chunking/document-block.js'

const delimiterRow = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

/**
 * A pipe table (GitHub style) when `text` is one: a header line, a delimiter line (`| --- | :-: |`), rows.
 *
 * @example
 * ```ts
 * pipeTable('| a | b |\n| - | - |\n| 1 | 2 |') // { kind: 'table', style: 'markdown', header: ['a', 'b'], rows: [['1', '2']] }
 * ```
 */
export function pipeTable(text: string): TableBlock | undefined {
  const lines = text.split(/\r?\n|\r/)
  if (lines.length < 2 || !lines[0]!.includes('|') || !delimiterRow.test(lines[1]!) || !lines[1]!.includes('-')) return undefined
  const header = cellsOf(lines[0]!)
  if (cellsOf(lines[1]!).length !== header.length) return undefined
  return { kind: 'table', style: 'markdown', header, rows: lines.slice(2).filter((line) => line.trim() !== '').map(cellsOf) }
}

function cellsOf(line: string): string[] {
  let row = line.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1)
  const cells: string[] = []
  let current = ''
  for (let i = 0; i < row.length; i++) {
    const c = row[i]!
    if (c === '\\' && row[i + 1] === '|') {
      current += '|'
      i++
    } else if (c === '|') {
      cells.push(current.trim())
      current = ''
    } else current += c
  }
  cells.push(current.trim())
  return cells
}
