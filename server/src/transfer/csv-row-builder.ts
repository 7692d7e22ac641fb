import { csvCellValue } from './csv-cell-value.js'
import type { CsvRecordView } from './csv-record-scanner.js'
import { SYSTEM_COLUMNS, type TransferColumn, type TransferColumnKind } from './transfer-column.js'

/** What to do with the cells of one header column. */
interface HeaderCell {
  name: string
  /** The column's kind; undefined for a name that is not a column (kept as text, the store warns about it). */
  kind: TransferColumnKind | undefined
  /** `id`, `createdAt`, `updatedAt`: never imported. */
  ignored: boolean
}

/**
 * Turns CSV records into rows, as imports always did: the first record is the header naming the columns;
 * `id`, `createdAt` and `updatedAt` are ignored; a cell of a known column is typed by its kind
 * ({@link csvCellValue}), one of an unknown name kept as text (the store ignores it with a warning); an empty
 * unquoted cell leaves the key out; cells beyond the header are ignored; a blank line is no row.
 *
 * @example
 * ```ts
 * const builder = new CsvRowBuilder([{ name: 'score', kind: 'number' }])
 * builder.build(headerRecord) // undefined: the header
 * builder.build(record) // { score: 2 }
 * ```
 */
export class CsvRowBuilder {
  private readonly kinds: Map<string, TransferColumnKind>
  private header: HeaderCell[] | undefined

  constructor(columns: readonly TransferColumn[]) {
    this.kinds = new Map(columns.map((column) => [column.name, column.kind]))
  }

  /**
   * The row of one record, or undefined for the header and for a blank line.
   *
   * @example
   * ```ts
   * const row = builder.build(record)
   * if (row) batch.push(row)
   * ```
   */
  build(record: CsvRecordView): Record<string, unknown> | undefined {
    if (this.header === undefined) {
      this.header = []
      for (let i = 0; i < record.fieldCount; i++) {
        const name = record.fieldText(i)
        this.header.push({ name, kind: this.kinds.get(name), ignored: SYSTEM_COLUMNS.includes(name) })
      }
      return undefined
    }
    if (record.fieldCount === 1 && !record.fieldQuoted(0) && record.fieldText(0) === '') return undefined
    // Header names are data: `Object.fromEntries` keeps even `__proto__` as a key, for the store to ignore with a
    // warning like any other name that is not a column (an assignment would replace the row's prototype).
    const entries: Array<[string, unknown]> = []
    const cells = Math.min(this.header.length, record.fieldCount)
    for (let i = 0; i < cells; i++) {
      const cell = this.header[i]!
      if (cell.ignored) continue
      const text = record.fieldText(i)
      const value = cell.kind === undefined ? text : csvCellValue(cell.kind, text, record.fieldQuoted(i))
      if (value !== undefined) entries.push([cell.name, value])
    }
    return Object.fromEntries(entries)
  }
}
