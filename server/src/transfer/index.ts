/**
 * The CSV and JSON transfer codecs of tables: what the service's import/export jobs and the CLI's `tables import`
 * and `tables export` both use, so a file the CLI writes reads back the same in the service.
 */
export { csvField, csvRecord, neutraliseFormula, parseCsv, type CsvField, type CsvFormulaOptions } from './csv.js'
export { CsvRecordScanner, type CsvRecordView } from './csv-record-scanner.js'
export { JsonRowsScanner } from './json-rows-scanner.js'
export {
  decodeImport,
  DEFAULT_BATCH_BYTES,
  DEFAULT_BATCH_ROWS,
  DEFAULT_IMPORT_MAX_BYTES,
  DEFAULT_MAX_ROW_BYTES,
  type DecodeImportOptions,
} from './decode-import.js'
export { encodeExport, EXPORT_CHUNK_BYTES, type EncodeExportOptions } from './encode-export.js'
export { TransferError, type TransferErrorCode } from './transfer-error.js'
export type { TransferColumn, TransferColumnKind } from './transfer-column.js'
