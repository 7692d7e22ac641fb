export type { TableJobChange, TableJobRecord, TablesPort } from './tables-port.js'
export type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from './types.js'
export { invalidQuery, invalidSchema, TablesStoreError, type TablesErrorCode } from './errors.js'
export { isTableId, newTableId, newTableJobId } from './ids.js'
