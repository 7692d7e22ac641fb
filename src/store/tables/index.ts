export type { TableJobChange, TableJobRecord, TablesPort } from './tables-port.js'
export type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from './types.js'
