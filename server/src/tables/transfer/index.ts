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
