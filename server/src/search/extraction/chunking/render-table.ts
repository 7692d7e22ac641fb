import type { TableBlock } from './document-block.js'
import { normalizeInline } from './normalize-whitespace.js'

/** A table as text: the header lines every chunk of it starts with, and one line per row. */
export interface RenderedTable {
  head: string
  rows: string[]
}

/**
 * Renders a table for chunking. Markdown tables: `| a | b |` rows under the header and its `| --- |` line (a
 * table without header gets the first row as header). Records: each row as `header: value; ...`, empty cells
 * left out, no head. Cells are whitespace-normalized and `|` is escaped.
 *
 * @example
 * ```ts
 * renderTable({ kind: 'table', style: 'records', header: ['name', 'age'], rows: [['Ada', '36']] }).rows // ['name: Ada; age: 36']
 * ```
 */
export function renderTable(table: TableBlock): RenderedTable {
  return table.style === 'records' ? renderRecords(table) : renderMarkdown(table)
}

function renderRecords(table: TableBlock): RenderedTable {
  const header = (table.header ?? []).map(normalizeInline)
  const rows: string[] = []
  for (const row of table.rows) {
    const parts: string[] = []
    row.forEach((cell, index) => {
      const value = normalizeInline(cell)
      if (value === '') return
      const name = header[index]
      parts.push(name ? `${name}: ${value}` : value)
    })
    if (parts.length > 0) rows.push(parts.join('; '))
  }
  return { head: '', rows }
}

function renderMarkdown(table: TableBlock): RenderedTable {
  const cells = (row: string[]) => row.map((cell) => normalizeInline(cell).replaceAll('|', '\\|'))
  let header = table.header ? cells(table.header) : undefined
  let body = table.rows.map(cells).filter((row) => row.some((cell) => cell !== ''))
  if (!header || header.every((cell) => cell === '')) {
    header = body[0]
    body = body.slice(1)
  }
  if (!header) return { head: '', rows: [] }
  const width = Math.max(header.length, ...body.map((row) => row.length))
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`
  const head = `${line(header)}\n|${' --- |'.repeat(width)}`
  return { head, rows: body.map(line) }
}
