/**
 * The hard limits of the Tables API (docs/wire-format.md §5). One place, read by the schemas,
 * the store and the docs.
 *
 * @example
 * ```ts
 * if (rows.length > tablesLimits.rowsPerWrite) throw new Error('too many rows')
 * ```
 */
export const tablesLimits = {
  /** User columns per table. */
  columnsPerTable: 20,
  /** Column name length, in characters. */
  columnNameMin: 1,
  columnNameMax: 30,
  /** Bytes of user data per row (JSON, UTF-8) for `factor` 1; multiplied by the table's factor. */
  rowBytesPerFactor: 4096,
  factorMin: 1,
  factorMax: 30,
  /** Rows per create/update/upsert call, and ids per delete call. */
  rowsPerWrite: 1000,
  /** `findTableRows.limit`: 1 to 1000, default 100. */
  findLimitMax: 1000,
  findLimitDefault: 100,
  /**
   * `findTableRows.select`: columns or dot paths, each copied out of every row returned
   * (docs/decisions/0701-input-bounds.md).
   */
  selectMax: 100,
  /** `findTableRows.search`, in characters. */
  searchMax: 1024,
  /** Request body of any Tables API call, in bytes. */
  payloadBytes: 40 * 1024 * 1024,
  /** `listTables` page size: large by default because `@botpress/client` ignores `meta.nextToken`. */
  listTablesPageDefault: 1000,
  listTablesPageMax: 1000,
  /** Table tags. */
  tagKeyMax: 50,
  /** Tags per table (botshelf's bound, as files have; decision 0703). */
  tagsMaxCount: 50,
  /** Most tag keys in the `tags` filter of `listTables` (docs/decisions/0701-input-bounds.md). */
  tagFilterKeysMax: 50,
  tagValueMax: 255,
  /** Largest row id (int32). */
  maxRowId: 2147483647,
} as const

/**
 * Column names the system uses on every row; a user column may not take them.
 *
 * @example
 * ```ts
 * reservedColumnNames.includes('id') // true
 * ```
 */
export const reservedColumnNames = ['id', 'createdAt', 'updatedAt', 'computed', 'stale'] as const

/**
 * Table name rule (decision 0401): 1 to 45 letters, digits or `_`, then `Table` in any case — the rule of
 * `@botpress/zai`, which also admits every name the ADK's stricter rule allows.
 *
 * @example
 * ```ts
 * tableNamePattern.test('ordersTable') // true
 * tableNamePattern.test('orders') // false
 * ```
 */
export const tableNamePattern = /^[A-Za-z0-9_]{1,45}table$/i

/**
 * Column name rule (decision 0401): 1 to 30 characters, no `.` (dot paths address nested values in
 * `select`), not starting with `$` (operators), no control characters.
 *
 * @example
 * ```ts
 * columnNamePattern.test('firstName') // true
 * columnNamePattern.test('a.b') // false
 * ```
 */
export const columnNamePattern = /^(?!\$)[^.\u0000-\u001f\u007f]{1,30}$/
