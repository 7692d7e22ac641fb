import ExcelJS from 'exceljs'
import { contentTypes, type GeneratedDocument } from './generated-document.js'

/** One sheet of a generated workbook: its name and its rows (the first is the header). */
export interface Sheet {
  name: string
  rows: Array<Array<string | number | Date>>
}

/** An XLSX written by exceljs, one worksheet per sheet. */
export async function xlsxDocument(sheets: Sheet[], options: { key?: string } = {}): Promise<GeneratedDocument> {
  const workbook = new ExcelJS.Workbook()
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name)
    for (const row of sheet.rows) worksheet.addRow(row)
  }
  const buffer = await workbook.xlsx.writeBuffer()
  return { content: new Uint8Array(buffer as ArrayBuffer), contentType: contentTypes.xlsx, key: options.key ?? 'generated.xlsx' }
}
