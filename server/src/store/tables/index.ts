// The tables port and everything about tables that does not depend on a database engine: schema input and
// changes, row validation, the filter language (validated into a FilterNode) and find plans, the rules of the
// catalog and of row writes, the bounds of stored JSON and of regex work, ids and errors. Adapters (src/store/sqlite/, later PostgreSQL) add storage and SQL.

// Port and records
export type { TableJobChange, TableJobRecord, TablesPort } from './tables-port.js'
export type { CreateTableInput, FindQuery, FindResult, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from './types.js'
export { tableToWire } from './table-wire.js'
export { importOutOfStep, stagingTableName, tableChangedDuringImport, type PublishedRows } from './import-staging.js'
export { checkRowSnapshot, recordFromSnapshot, rowValues, tableSnapshotOf, type RowSnapshot, type TableSnapshot } from './table-snapshot.js'

// Errors and ids
export { invalidQuery, invalidSchema, TablesStoreError, type TablesErrorCode } from './errors.js'
export { isTableId, newTableId, newTableJobId } from './ids.js'

// Columns and values
export { columnKind, orderedKinds, scalarKinds, type ColumnKind } from './column-kinds.js'
export { resetColumnsOf } from './reset-columns.js'
export { isSystemColumn, systemColumnKinds, tableColumn, tableColumns, type TableColumn, type TableColumns } from './table-columns.js'
export { isIsoDateTime, normalizeDateTime } from './date-time.js'
export { compileSafeRegex, RegexTooComplexError, type CompileRegexOptions, type SafeRegex } from './safe-regex.js'
export { estimateRegexSize } from './regex-size.js'
export { regexLimits } from './regex-limits.js'
export { queryRegexBudget, RegexBudget, RegexBudgetExceeded, schemaRegexBudget, writeRegexBudget, type RegexBudgetOptions } from './regex-budget.js'
export { describeJsonBoundsProblem, jsonBoundsProblem, type JsonBoundsProblem } from './json-bounds.js'

// Schemas
export { checkColumnName, detectSchemaForm, readColumnDefinition, readSchemaInput, type ColumnDraft, type SchemaInput, type SchemaInputForm } from './schema-input.js'
export { buildTableSchema, checkColumnPatterns, finalizeColumn, newTableSchema, orderedColumns, schemaColumn } from './table-schema.js'
export {
  convertColumnValue,
  planSchemaChange,
  unconvertibleValues,
  valuesMissing,
  valuesNotMatching,
  valuesOutsideEnum,
  type Conversion,
  type SchemaChangePlan,
  type SchemaChangeStep,
} from './schema-change.js'

// Catalog and row rules
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
export { rowProblemsError, validateRows, valueProblem, type RowProblem, type ValidatedRows } from './row-validation.js'

// Row vectors (hybrid search)
export {
  arrangeHybridRows,
  lexicalDepth,
  planHybridFetch,
  rankTableSearch,
  searchableText,
  TABLE_SEARCH_CANDIDATES,
  type ClaimStaleRowsInput,
  type HybridFetch,
  type QueryVector,
  type RankedRow,
  type RowVectorCounts,
  type SetRowVectorsInput,
  type StaleRowsClaim,
} from './row-vectors/index.js'

// Queries
export {
  checkRegex,
  compileFilterRegexes,
  countFilterTerms,
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
export { tableJobRowToWire, type TableJobRow } from './table-job-row.js'
export { storedRowReader, type RawRow, type StoredRowReader, type ValueDecoder } from './stored-row.js'
export { copiedTableRecord, newTableRecord, physicalTableName, type RecordClock } from './new-table-record.js'
