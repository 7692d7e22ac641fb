export type { TableJobChange, TableJobRecord, TablesPort } from './tables-port.js'
export type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from './types.js'
export { invalidQuery, invalidSchema, TablesStoreError, type TablesErrorCode } from './errors.js'
export { isTableId, newTableId, newTableJobId } from './ids.js'
export { columnKind, orderedKinds, scalarKinds, type ColumnKind } from './column-kinds.js'
export { isIsoDateTime, normalizeDateTime } from './date-time.js'
export { compileSafeRegex, type SafeRegex } from './safe-regex.js'
export { detectSchemaForm, readColumnDefinition, readSchemaInput, type ColumnDraft, type SchemaInput, type SchemaInputForm } from './schema-input.js'
export { buildTableSchema, finalizeColumn, newTableSchema, orderedColumns } from './table-schema.js'
export { convertColumnValue, planSchemaChange, type Conversion, type SchemaChangePlan, type SchemaChangeStep } from './schema-change.js'
export { isSystemColumn, systemColumnKinds, tableColumn, tableColumns, type TableColumn, type TableColumns } from './table-columns.js'
export { rowProblemsError, validateRows, valueProblem, type RowProblem, type ValidatedRows } from './row-validation.js'
export { tableToWire } from './table-wire.js'
export {
  checkRegex,
  countFilterValues,
  filterLimits,
  parseFilter,
  queryColumns,
  resolveTarget,
  type ColumnKindLookup,
  type ColumnTarget,
  type ComparisonOperator,
  type ElementOperand,
  type FilterNode,
  type FilterOperand,
  type FilterTarget,
  type PathTarget,
} from './filter/index.js'
export {
  planFind,
  planProjection,
  projectRow,
  searchWords,
  type FindPlan,
  type GroupFindPlan,
  type GroupOutput,
  type RowsFindPlan,
  type RowsOrder,
  type RowsProjection,
  type SortDirection,
} from './find/index.js'
export {
  checkCopyFactor,
  checkKeyColumn,
  checkTableName,
  checkTableUpdate,
  copyNameCandidates,
  frozenError,
  keyColumnNotUnique,
  noFreeCopyName,
  normalizeKeyColumn,
  renamedColumnRecord,
  tableNameTaken,
  tableNotFound,
} from './table-rules.js'
export { checkDeleteMode, checkRowBatch, keyConflict, missingRows, rowIdsExhausted, rowNotFound, upsertKey } from './row-rules.js'
export { unconvertibleValues, valuesMissing, valuesNotMatching, valuesOutsideEnum } from './schema-change.js'
