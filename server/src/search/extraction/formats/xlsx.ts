import ExcelJS from 'exceljs'
import type { DocumentBlock } from '../chunking/document-block.js'
import { ExtractionError } from '../extraction-error.js'
import type { ReadContext } from './format-reader.js'
import { checkedOoxml } from './ooxml-package.js'

/**
 * XLSX: each worksheet is a page, its name a level-1 heading, its rows one records table: the first non-empty row
 * is the header, each later row a line `header: value; ...` (cells as displayed: formula results, rich text,
 * hyperlink texts, dates). Charts, images and hidden formatting are not read. More sheets than `limits.maxPages`
 * is `TOO_MANY_PAGES`.
 *
 * @example
 * ```ts
 * await readXlsx(bytes, context) // [{ kind: 'page', pageNumber: 1, ... }, { kind: 'heading', text: 'Sheet1', ... }, { kind: 'table', ... }]
 * ```
 */
export async function readXlsx(bytes: Uint8Array, context: ReadContext): Promise<DocumentBlock[]> {
  const { key, limits } = context
  const buffer = checkedOoxml(bytes, key, limits, 'xl/workbook.xml', 'an Excel workbook')
  const workbook = new ExcelJS.Workbook()
  try {
    await workbook.xlsx.load(buffer as unknown as Parameters<typeof workbook.xlsx.load>[0])
  } catch (error) {
    throw new ExtractionError('CORRUPT_DOCUMENT', `${key} could not be read as an Excel workbook: ${(error as Error).message}`)
  }
  const sheets = workbook.worksheets
  if (sheets.length > limits.maxPages) {
    throw new ExtractionError('TOO_MANY_PAGES', `${key} has ${sheets.length} sheets, more than the ${limits.maxPages} allowed`)
  }
  const blocks: DocumentBlock[] = []
  sheets.forEach((sheet, index) => {
    blocks.push({ kind: 'page', pageNumber: index + 1, resetHeadings: true }, { kind: 'heading', level: 1, text: sheet.name })
    const rows: string[][] = []
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = []
      row.eachCell({ includeEmpty: true }, (cell, column) => {
        cells[column - 1] = cellText(cell)
      })
      const dense = Array.from(cells, (cell) => cell ?? '')
      if (dense.some((cell) => cell.trim() !== '')) rows.push(dense)
    })
    const [header, ...body] = rows
    if (header && body.length > 0) blocks.push({ kind: 'table', style: 'records', header, rows: body })
    else if (header) blocks.push({ kind: 'paragraph', text: header.filter((cell) => cell.trim() !== '').join(', ') })
  })
  return blocks
}

function cellText(cell: ExcelJS.Cell): string {
  try {
    const value = cell.value
    if (value instanceof Date) return value.toISOString().replace(/T00:00:00\.000Z$/, '')
    return cell.text ?? ''
  } catch {
    return ''
  }
}
