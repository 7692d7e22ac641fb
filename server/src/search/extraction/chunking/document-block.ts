/**
 * The structure every format reader produces and the chunker consumes: a flat sequence of blocks in document
 * order. Text is raw (the chunker normalizes whitespace); a `page` block starts a new page, slide or sheet (or, with
 * no number, leaves paged content); a `break` ends the current passage without starting a section.
 */
export type DocumentBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'blockquote'; text: string }
  | { kind: 'list'; items: string[]; ordered: boolean }
  | TableBlock
  | { kind: 'code'; text: string; language?: string }
  | { kind: 'image'; text: string }
  | { kind: 'page'; pageNumber: number | undefined; resetHeadings: boolean }
  | { kind: 'break' }

/**
 * A table. `markdown` tables are rendered as Markdown rows under their header; `records` tables (CSV, sheets)
 * render each row as `header: value; ...`, so every line stands on its own.
 */
export interface TableBlock {
  kind: 'table'
  header: string[] | undefined
  rows: string[][]
  style: 'markdown' | 'records'
}
