import Table from 'cli-table3'
import type { CliStream } from '../io.js'
import { escapeControls } from './escape-controls.js'

/**
 * Renders rows as a table for `stream`: boxed with cli-table3 on a terminal, plain columns separated by two spaces
 * otherwise (easy to read with `awk` or `cut`). Cells are turned into text; `null`/`undefined` print as `-`.
 *
 * @example
 * ```ts
 * io.stdout.write(renderTable(io.stdout, ['key', 'size'], [['a.txt', 12]]))
 * ```
 */
export function renderTable(stream: CliStream, header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cells = rows.map((row) => row.map(cellText))
  header = header.map(escapeControls)
  if (stream.isTTY === true) {
    const table = new Table({ head: [...header], style: { head: [], border: [] } })
    for (const row of cells) table.push(row)
    return `${table.toString()}\n`
  }
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)))
  const line = (row: readonly string[]) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return `${[line(header), ...cells.map(line)].join('\n')}\n`
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '-'
  // Values are stored by other callers: never let one drive the terminal (issue 28, decision 1464).
  if (typeof value === 'object') return escapeControls(JSON.stringify(value))
  return escapeControls(String(value).replace(/[\r\n\t]/g, ' '))
}
