import type { Column, Row, Table, TableJob, TableJsonSchema } from '../../api/tables/index.js'
import { tableNamePattern, tablesLimits } from '../../api/tables/index.js'
import type { Statement } from 'better-sqlite3'
import type { Sqlite } from './open-database.js'
import { decodeValue, encodeValue, quoteIdent, sqlTypeOf } from './tables-columns.js'
import { scalarKinds } from '../tables/column-kinds.js'
import {
  columnIndexName,
  createColumnIndex,
  createKeyIndex,
  createRowsTable,
  createSearch,
  dropKeyIndex,
  dropRowsTable,
  dropSearch,
} from './tables-ddl.js'
import { invalidQuery, invalidSchema, TablesStoreError } from '../tables/errors.js'
import { compileFind } from './tables-find.js'
import { planFind } from '../tables/find/index.js'
import type { FindQuery, FindResult } from '../tables/types.js'
import { isTableId, newTableId, newTableJobId } from '../tables/ids.js'
import { registerRegexFunction, REGEXP_FUNCTION } from './tables-regex-function.js'
import { rowProblemsError, validateRows, type RowProblem } from '../tables/row-validation.js'
import type { TableColumn } from '../tables/table-columns.js'
import { tableToWire } from '../tables/table-wire.js'
import { buildTableRuntime, filterWhere, type TableRuntime } from './tables-runtime.js'
import { convertColumnValue, planSchemaChange } from '../tables/schema-change.js'
import { readSchemaInput } from '../tables/schema-input.js'
import { buildTableSchema, newTableSchema, orderedColumns } from '../tables/table-schema.js'
import type { CreateTableInput, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from '../tables/types.js'

export type { CreateTableInput, RowsWriteResult, TableRecord, TableWithCounts, UpdateTableInput } from '../tables/types.js'
export { tableToWire } from '../tables/table-wire.js'

/** Options of the tables store. */
export interface TablesStoreOptions {
  /**
   * Clock for timestamps (tests pass a fake one).
   *
   * @example
   * ```ts
   * new SqliteTablesStore(db, { now: () => new Date('2026-01-01T00:00:00Z') })
   * ```
   */
  now?: () => Date
}

interface CatalogRow {
  id: string
  bot_id: string
  name: string
  physical: string
  schema_json: string
  physical_json: string
  next_column: number
  factor: number
  frozen: number
  key_column: string | null
  tags_json: string
  is_compute_enabled: number
  created_at: string
  updated_at: string
}


function toRecord(row: CatalogRow): TableRecord {
  return {
    id: row.id,
    botId: row.bot_id,
    name: row.name,
    physical: row.physical,
    schema: JSON.parse(row.schema_json) as TableJsonSchema,
    physicalMap: JSON.parse(row.physical_json) as Record<string, string>,
    nextColumn: row.next_column,
    factor: row.factor,
    frozen: row.frozen === 1,
    keyColumn: row.key_column,
    tags: JSON.parse(row.tags_json) as Record<string, string>,
    isComputeEnabled: row.is_compute_enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function normalizeKeyColumn(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value === null || value === '' ? null : value
}

function notFound(ref: string): TablesStoreError {
  return new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Table "${ref}" not found`)
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'
}

/** A catalog record as the named parameters of its row (JSON columns serialized, booleans as 0/1). */
function catalogValues(record: TableRecord): Record<string, string | number | null> {
  return {
    id: record.id,
    botId: record.botId,
    name: record.name,
    physical: record.physical,
    schemaJson: JSON.stringify(record.schema),
    physicalJson: JSON.stringify(record.physicalMap),
    nextColumn: record.nextColumn,
    factor: record.factor,
    frozen: record.frozen ? 1 : 0,
    keyColumn: record.keyColumn,
    tagsJson: JSON.stringify(record.tags),
    isComputeEnabled: record.isComputeEnabled ? 1 : 0,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/**
 * The embedded Tables store: a catalog of tables and, per user table, a real SQLite table with typed
 * columns, indexes and an FTS5 search table. Filters, sorting, grouping and search run as SQL.
 * Every write runs in one transaction: it applies completely or not at all.
 *
 * @example
 * ```ts
 * const db = openDatabase(':memory:')
 * runMigrations(db, tablesMigrations)
 * const tables = new SqliteTablesStore(db)
 * const table = tables.createTable('bot_1', { name: 'ordersTable', schema: { total: 0 } })
 * tables.createRows('bot_1', 'ordersTable', [{ total: 12 }])
 * ```
 */
export class SqliteTablesStore {
  private readonly now: () => Date
  private readonly statements = new Map<string, Statement<unknown[]>>()

  constructor(
    private readonly db: Sqlite,
    options: TablesStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date())
    registerRegexFunction(db)
  }

  private prepare(sql: string): Statement<unknown[]> {
    let statement = this.statements.get(sql)
    if (!statement) {
      if (this.statements.size > 500) this.statements.clear()
      statement = this.db.prepare<unknown[]>(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }

  private timestamp(): string {
    return this.now().toISOString()
  }

  // ---------------------------------------------------------------- catalog

  /**
   * Finds a table by id or name (ids look like `table_<ULID>`), or throws `ResourceNotFound`.
   *
   * @example
   * ```ts
   * const record = tables.loadTable('bot_1', 'ordersTable')
   * ```
   */
  loadTable(botId: string, ref: string): TableRecord {
    const byId = isTableId(ref)
      ? (this.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND id = ?').get(botId, ref) as CatalogRow | undefined)
      : undefined
    const row = byId ?? (this.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND name = ?').get(botId, ref) as CatalogRow | undefined)
    if (!row) throw notFound(ref)
    return toRecord(row)
  }

  private runtimeOf(record: TableRecord): TableRuntime {
    return buildTableRuntime(record.physical, record.schema, record.physicalMap)
  }

  private saveRecord(record: TableRecord): void {
    this.prepare(
      `UPDATE tables_catalog SET name = @name, schema_json = @schemaJson, physical_json = @physicalJson, next_column = @nextColumn,
       factor = @factor, frozen = @frozen, key_column = @keyColumn, tags_json = @tagsJson, is_compute_enabled = @isComputeEnabled,
       updated_at = @updatedAt WHERE id = @id`,
    ).run(catalogValues(record))
  }

  private insertRecord(record: TableRecord): void {
    this.prepare(
      `INSERT INTO tables_catalog (id, bot_id, name, physical, schema_json, physical_json, next_column, factor, frozen, key_column,
       tags_json, is_compute_enabled, created_at, updated_at) VALUES (@id, @botId, @name, @physical, @schemaJson, @physicalJson,
       @nextColumn, @factor, @frozen, @keyColumn, @tagsJson, @isComputeEnabled, @createdAt, @updatedAt)`,
    ).run(catalogValues(record))
  }

  private assertNameFree(botId: string, name: string): void {
    if (!tableNamePattern.test(name)) {
      throw new TablesStoreError(
        'InvalidPayload',
        'INVALID_REQUEST',
        `name: expected 1 to 45 letters, digits or "_" followed by "Table" (any case), received ${JSON.stringify(name)}`,
      )
    }
    const taken = this.prepare('SELECT 1 FROM tables_catalog WHERE bot_id = ? AND name = ?').get(botId, name)
    if (taken) throw new TablesStoreError('AlreadyExists', 'TABLE_EXISTS', `A table named "${name}" already exists`)
  }

  private checkKeyColumn(schema: TableJsonSchema, keyColumn: string | null): void {
    if (keyColumn === null) return
    const column = schema.properties[keyColumn]
    if (!column) throw invalidSchema(`keyColumn: "${keyColumn}" is not a column of the table`)
    const kind = buildTableRuntime('x', { ...schema, properties: { [keyColumn]: column } }, { [keyColumn]: 'x' }).columns[0]!.kind
    if (!scalarKinds.has(kind)) throw invalidSchema(`keyColumn: "${keyColumn}" is a ${kind} column; a key column must be a string, number, boolean or date column`)
  }

  /**
   * Lists a bot's tables, oldest first, with an equality tag filter and cursor pagination.
   *
   * @example
   * ```ts
   * const { tables, nextToken } = store.listTables('bot_1', { tags: { team: 'sales' } })
   * ```
   */
  listTables(botId: string, options: { tags?: Record<string, string>; nextToken?: string; pageSize?: number } = {}): { tables: Table[]; nextToken?: string } {
    const pageSize = options.pageSize ?? tablesLimits.listTablesPageDefault
    const where = ['bot_id = ?']
    const params: unknown[] = [botId]
    if (options.nextToken !== undefined) {
      const cursor = decodeCursor(options.nextToken)
      where.push('(created_at > ? OR (created_at = ? AND id > ?))')
      params.push(cursor.createdAt, cursor.createdAt, cursor.id)
    }
    for (const [key, value] of Object.entries(options.tags ?? {})) {
      where.push('EXISTS (SELECT 1 FROM json_each(tags_json) WHERE json_each.key = ? AND json_each.value = ?)')
      params.push(key, value)
    }
    const rows = this.db
      .prepare(`SELECT * FROM tables_catalog WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT ?`)
      .all(...params, pageSize + 1) as CatalogRow[]
    const page = rows.slice(0, pageSize).map((r) => tableToWire(toRecord(r)))
    const last = rows.length > pageSize ? rows[pageSize - 1] : undefined
    return last ? { tables: page, nextToken: encodeCursor(last.created_at, last.id) } : { tables: page }
  }

  /**
   * Creates a table from any of the three schema forms (decision 0402).
   *
   * @example
   * ```ts
   * store.createTable('bot_1', { name: 'ordersTable', schema: { total: 0, customer: '' }, keyColumn: 'customer' })
   * ```
   */
  createTable(botId: string, input: CreateTableInput): Table {
    return this.db.transaction(() => tableToWire(this.createRecord(botId, input)))()
  }

  private createRecord(botId: string, input: CreateTableInput): TableRecord {
    this.assertNameFree(botId, input.name)
    const schema = newTableSchema(input.schema)
    const keyColumn = normalizeKeyColumn(input.keyColumn) ?? null
    this.checkKeyColumn(schema, keyColumn)
    const now = this.timestamp()
    const id = newTableId(this.now())
    const record: TableRecord = {
      id,
      botId,
      name: input.name,
      physical: `ut_${id.slice('table_'.length).toLowerCase()}`,
      schema,
      physicalMap: Object.fromEntries(Object.keys(schema.properties).map((name, i) => [name, `c${i + 1}`])),
      nextColumn: Object.keys(schema.properties).length + 1,
      factor: input.factor ?? 1,
      frozen: input.frozen ?? false,
      keyColumn,
      tags: input.tags ?? {},
      isComputeEnabled: input.isComputeEnabled ?? false,
      createdAt: now,
      updatedAt: now,
    }
    this.insertRecord(record)
    createRowsTable(this.db, this.runtimeOf(record), keyColumn)
    return record
  }

  private counts(record: TableRecord): { rows: number; stale: number; indexing: number } {
    const rows = this.prepare(`SELECT COUNT(*) FROM ${quoteIdent(record.physical)}`).pluck().get() as number
    return { rows, stale: 0, indexing: 0 }
  }

  /**
   * A table with its row count (`stale` and `indexing` are always 0: nothing is computed or indexed later).
   *
   * @example
   * ```ts
   * const { table, rows } = store.getTable('bot_1', 'ordersTable')
   * ```
   */
  getTable(botId: string, ref: string): TableWithCounts {
    const record = this.loadTable(botId, ref)
    return { table: tableToWire(record), ...this.counts(record) }
  }

  /**
   * The table named `name`, or a new one built from `input` when there is none. An existing table is
   * returned as is (its schema is not compared with `input.schema`).
   *
   * @example
   * ```ts
   * const { table, created } = store.getOrCreateTable('bot_1', 'ordersTable', { schema: { total: 0 } })
   * ```
   */
  getOrCreateTable(botId: string, name: string, input: Omit<CreateTableInput, 'name'>): TableWithCounts & { created: boolean } {
    return this.db.transaction(() => {
      const existing = this.prepare('SELECT * FROM tables_catalog WHERE bot_id = ? AND (name = ? OR id = ?)').get(botId, name, name) as CatalogRow | undefined
      if (existing) {
        const record = toRecord(existing)
        return { table: tableToWire(record), created: false, ...this.counts(record) }
      }
      const record = this.createRecord(botId, { ...input, name })
      return { table: tableToWire(record), created: true, rows: 0, stale: 0, indexing: 0 }
    })()
  }

  /**
   * Deletes a table, its rows, indexes, search table and jobs.
   *
   * @example
   * ```ts
   * store.deleteTable('bot_1', 'ordersTable')
   * ```
   */
  deleteTable(botId: string, ref: string): void {
    this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      dropRowsTable(this.db, record.physical)
      this.prepare('DELETE FROM tables_catalog WHERE id = ?').run(record.id)
      this.prepare('DELETE FROM tables_jobs WHERE table_id = ?').run(record.id)
    })()
  }

  /**
   * Copies a table: schema, key column, tags, and (unless `schemaOnly`) every row with its id and
   * timestamps. The copy is never frozen. Default name: `<base>Copy<N>Table`.
   *
   * @example
   * ```ts
   * const { table, rows } = store.duplicateTable('bot_1', 'ordersTable', { tableName: 'ordersBackupTable' })
   * ```
   */
  duplicateTable(botId: string, ref: string, options: { tableName?: string; schemaOnly?: boolean; factor?: number } = {}): { table: Table; rows: number } {
    return this.db.transaction(() => {
      const source = this.loadTable(botId, ref)
      const name = options.tableName ?? this.copyName(botId, source.name)
      this.assertNameFree(botId, name)
      const factor = options.factor ?? source.factor
      if (!options.schemaOnly && factor < source.factor) {
        throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `factor: a copy with rows needs a factor of at least ${source.factor} (the source's), received ${factor}`)
      }
      const now = this.timestamp()
      const id = newTableId(this.now())
      const record: TableRecord = {
        ...source,
        id,
        name,
        physical: `ut_${id.slice('table_'.length).toLowerCase()}`,
        factor,
        frozen: false,
        createdAt: now,
        updatedAt: now,
      }
      this.insertRecord(record)
      const rt = this.runtimeOf(record)
      createRowsTable(this.db, rt, record.keyColumn)
      let rows = 0
      if (!options.schemaOnly) {
        const cols = ['id', 'created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))].join(', ')
        rows = this.db.prepare(`INSERT INTO ${quoteIdent(record.physical)} (${cols}) SELECT ${cols} FROM ${quoteIdent(source.physical)}`).run().changes
      }
      return { table: tableToWire(record), rows }
    })()
  }

  private copyName(botId: string, source: string): string {
    const base = source.replace(/table$/i, '')
    for (let n = 1; n < 1000; n++) {
      const candidate = `${base}Copy${n === 1 ? '' : n}Table`
      if (!tableNamePattern.test(candidate)) break
      if (!this.prepare('SELECT 1 FROM tables_catalog WHERE bot_id = ? AND name = ?').get(botId, candidate)) return candidate
    }
    throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', 'tableName: no free default name for the copy; give tableName')
  }

  /**
   * Renames a column; its data, index and search entries follow (the SQLite column does not change).
   *
   * @example
   * ```ts
   * store.renameColumn('bot_1', 'ordersTable', 'cust', 'customer')
   * ```
   */
  renameColumn(botId: string, ref: string, name: string, newName: string): Table {
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      if (record.frozen) throw frozenError(record.name)
      if (!record.schema.properties[name]) throw new TablesStoreError('ResourceNotFound', 'INVALID_REQUEST', `name: column "${name}" not found in table "${record.name}"`)
      if (name === newName) return tableToWire(record)
      readSchemaInput({ [newName]: 'x' }, 'newName')
      if (record.schema.properties[newName]) throw new TablesStoreError('AlreadyExists', 'INVALID_REQUEST', `newName: column "${newName}" already exists`)
      const columns = orderedColumns(record.schema).map((c) => (c.name === name ? { ...c, name: newName } : c))
      const required = (record.schema.required ?? []).map((r) => (r === name ? newName : r))
      record.schema = buildTableSchema(columns, required, record.schema.$schema)
      record.physicalMap = Object.fromEntries(Object.entries(record.physicalMap).map(([k, v]) => [k === name ? newName : k, v]))
      if (record.keyColumn === name) record.keyColumn = newName
      record.updatedAt = this.timestamp()
      this.saveRecord(record)
      return tableToWire(record)
    })()
  }

  /**
   * Updates a table (decision 0404): name, tags, `isComputeEnabled`, `frozen`, `factor` (only up),
   * `keyColumn` (`null`/`""` removes it), and `schema` merged column by column: a given column is added or
   * replaced, `null`/`{ type: 'null' }` removes it, columns not named stay; `required`, when given, replaces.
   *
   * @example
   * ```ts
   * store.updateTable('bot_1', 'ordersTable', { schema: { note: { type: 'string' } }, factor: 2 })
   * ```
   */
  updateTable(botId: string, ref: string, input: UpdateTableInput): { table: Table } {
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      const keyColumn = normalizeKeyColumn(input.keyColumn)
      if (record.frozen) {
        const structural =
          (input.name !== undefined && input.name !== record.name) ||
          input.schema !== undefined ||
          (keyColumn !== undefined && keyColumn !== record.keyColumn) ||
          input.frozen === false
        if (structural) throw frozenError(record.name)
      }
      if (input.factor !== undefined && input.factor < record.factor) {
        throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `factor: may only increase (current ${record.factor}), received ${input.factor}`)
      }
      if (input.name !== undefined && input.name !== record.name) {
        this.assertNameFree(botId, input.name)
        record.name = input.name
      }
      if (input.schema !== undefined) this.applySchemaChange(record, input.schema)
      if (keyColumn !== undefined || (record.keyColumn !== null && !record.schema.properties[record.keyColumn])) {
        this.applyKeyColumn(record, keyColumn === undefined ? (record.schema.properties[record.keyColumn ?? ''] ? record.keyColumn : null) : keyColumn)
      }
      if (input.factor !== undefined) record.factor = input.factor
      if (input.tags !== undefined) record.tags = input.tags
      if (input.isComputeEnabled !== undefined) record.isComputeEnabled = input.isComputeEnabled
      if (input.frozen !== undefined) record.frozen = input.frozen
      record.updatedAt = this.timestamp()
      this.saveRecord(record)
      return { table: tableToWire(record) }
    })()
  }

  private applyKeyColumn(record: TableRecord, keyColumn: string | null): void {
    dropKeyIndex(this.db, record.physical)
    record.keyColumn = keyColumn
    if (keyColumn === null) return
    this.checkKeyColumn(record.schema, keyColumn)
    try {
      createKeyIndex(this.db, this.runtimeOf(record), keyColumn)
    } catch (error) {
      if (!isUniqueViolation(error)) throw error
      throw new TablesStoreError('AlreadyExists', 'KEY_CONFLICT', `keyColumn: column "${keyColumn}" has duplicate values; a key column must be unique`)
    }
  }

  private applySchemaChange(record: TableRecord, schemaInput: Record<string, unknown>): void {
    const plan = planSchemaChange(record.schema, schemaInput)
    const before = this.runtimeOf(record)
    const table = quoteIdent(record.physical)
    dropSearch(this.db, record.physical)
    for (const name of plan.removed) {
      const rt = before.byName.get(name)!
      if (record.keyColumn === name) {
        dropKeyIndex(this.db, record.physical)
        record.keyColumn = null
      }
      this.db.exec(`DROP INDEX IF EXISTS ${quoteIdent(columnIndexName(record.physical, rt.physical))}`)
      this.db.exec(`ALTER TABLE ${table} DROP COLUMN ${quoteIdent(rt.physical)}`)
      delete record.physicalMap[name]
    }
    for (const step of plan.steps) {
      if (step.action === 'convert') {
        record.physicalMap[step.name] = this.convertColumn(record, before.byName.get(step.name)!, step.to)
        continue
      }
      const physical = `c${record.nextColumn++}`
      const rt = buildTableRuntime('x', buildTableSchema([{ name: step.name, column: step.column }], []), { [step.name]: physical }).columns[0]!
      this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(physical)} ${sqlTypeOf(rt.kind)}`)
      createColumnIndex(this.db, record.physical, rt)
      record.physicalMap[step.name] = physical
    }
    record.schema = plan.schema
    const after = this.runtimeOf(record)
    this.checkExistingValues(record, after)
    createSearch(this.db, after)
  }

  /** Moves a column's values to a new SQLite column of the new kind, converting each (decision 0404). */
  private convertColumn(record: TableRecord, old: TableColumn, kind: TableColumn['kind']): string {
    const table = quoteIdent(record.physical)
    const physical = `c${record.nextColumn++}`
    const values = this.db.prepare(`SELECT id, ${quoteIdent(old.physical)} AS v FROM ${table} WHERE ${quoteIdent(old.physical)} IS NOT NULL`).all() as Array<{ id: number; v: unknown }>
    const converted: Array<[number, string | number | null]> = []
    let failures = 0
    let example: unknown
    for (const { id, v } of values) {
      const result = convertColumnValue(old.kind, kind, decodeValue(old.kind, v))
      if (result.ok) converted.push([id, encodeValue(kind, result.value)])
      else {
        failures++
        example ??= decodeValue(old.kind, v)
      }
    }
    if (failures > 0) {
      throw new TablesStoreError(
        'BreakingChanges',
        'BREAKING_CHANGE',
        `schema.${old.name}: cannot change the column from ${old.kind} to ${kind}: ${failures} existing value${failures === 1 ? '' : 's'} do not convert (e.g. ${JSON.stringify(example)}); clear or fix them first`,
      )
    }
    this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(physical)} ${sqlTypeOf(kind)}`)
    const update = this.db.prepare(`UPDATE ${table} SET ${quoteIdent(physical)} = ? WHERE id = ?`)
    for (const [id, value] of converted) update.run(value, id)
    if (record.keyColumn === old.name) dropKeyIndex(this.db, record.physical)
    this.db.exec(`DROP INDEX IF EXISTS ${quoteIdent(columnIndexName(record.physical, old.physical))}`)
    this.db.exec(`ALTER TABLE ${table} DROP COLUMN ${quoteIdent(old.physical)}`)
    createColumnIndex(this.db, record.physical, { ...old, physical, kind })
    if (record.keyColumn === old.name) {
      record.physicalMap[old.name] = physical
      createKeyIndex(this.db, this.runtimeOf(record), old.name)
    }
    return physical
  }

  /** Refuses a schema change that existing rows would violate: required/non-nullable with nulls, enum, pattern. */
  private checkExistingValues(record: TableRecord, rt: TableRuntime): void {
    const table = quoteIdent(record.physical)
    for (const column of rt.columns) {
      const col = quoteIdent(column.physical)
      if (column.required || !column.nullable) {
        const missing = this.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${col} IS NULL`).pluck().get() as number
        if (missing > 0) {
          throw new TablesStoreError('BreakingChanges', 'BREAKING_CHANGE', `schema.${column.name}: ${missing} existing row${missing === 1 ? ' has' : 's have'} no value, so the column cannot be required or non-nullable`)
        }
      }
      if (column.column.enum) {
        const marks = column.column.enum.map(() => '?').join(', ')
        const bad = this.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${col} IS NOT NULL AND ${col} NOT IN (${marks})`).pluck().get(...column.column.enum) as number
        if (bad > 0) throw new TablesStoreError('BreakingChanges', 'BREAKING_CHANGE', `schema.${column.name}.enum: ${bad} existing value${bad === 1 ? ' is' : 's are'} not in the new enum`)
      }
      if (column.column.pattern !== undefined) {
        const bad = this.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${col} IS NOT NULL AND ${REGEXP_FUNCTION}(?, 'u', ${col}) = 0`).pluck().get(column.column.pattern) as number
        if (bad > 0) throw new TablesStoreError('BreakingChanges', 'BREAKING_CHANGE', `schema.${column.name}.pattern: ${bad} existing value${bad === 1 ? ' does' : 's do'} not match the new pattern`)
      }
    }
  }

  // ---------------------------------------------------------------- rows

  private rowFromRaw(rt: TableRuntime, raw: Record<string, unknown>): Row {
    const row: Row = { id: raw['id'] as number, createdAt: raw['created_at'] as string, updatedAt: raw['updated_at'] as string, computed: {} }
    for (const c of rt.columns) row[c.name] = decodeValue(c.kind, raw[c.physical])
    return row
  }

  private selectRows(rt: TableRuntime, ids: readonly number[]): Map<number, Record<string, unknown>> {
    const found = new Map<number, Record<string, unknown>>()
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500)
      const rows = this.db
        .prepare(`SELECT * FROM ${quoteIdent(rt.physical)} WHERE id IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk) as Array<Record<string, unknown>>
      for (const row of rows) found.set(row['id'] as number, row)
    }
    return found
  }

  /**
   * One row by id, or `ResourceNotFound`.
   *
   * @example
   * ```ts
   * const row = store.getRow('bot_1', 'ordersTable', 1)
   * ```
   */
  getRow(botId: string, ref: string, id: number): Row {
    const record = this.loadTable(botId, ref)
    const rt = this.runtimeOf(record)
    const raw = this.prepare(`SELECT * FROM ${quoteIdent(rt.physical)} WHERE id = ?`).get(id) as Record<string, unknown> | undefined
    if (!raw) throw new TablesStoreError('ResourceNotFound', 'ROW_NOT_FOUND', `Row ${id} not found in table "${record.name}"`)
    return this.rowFromRaw(rt, raw)
  }

  private insertStatement(rt: TableRuntime) {
    const cols = ['created_at', 'updated_at', ...rt.columns.map((c) => quoteIdent(c.physical))]
    return this.prepare(`INSERT INTO ${quoteIdent(rt.physical)} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
  }

  private keyConflict(record: TableRecord, index: number, value: unknown): TablesStoreError {
    return new TablesStoreError(
      'AlreadyExists',
      'KEY_CONFLICT',
      `rows.${index}.${record.keyColumn}: another row already has ${JSON.stringify(value)} in the key column "${record.keyColumn}"; no row was written`,
    )
  }

  private insertPrepared(record: TableRecord, rt: TableRuntime, validated: Map<string, unknown>, index: number, now: string): Row {
    const values = rt.columns.map((c) => encodeValue(c.kind, validated.get(c.name)))
    let id: number
    try {
      id = Number(this.insertStatement(rt).run(now, now, ...values).lastInsertRowid)
    } catch (error) {
      if (isUniqueViolation(error) && record.keyColumn) throw this.keyConflict(record, index, validated.get(record.keyColumn))
      throw error
    }
    if (id > tablesLimits.maxRowId) {
      throw new TablesStoreError('LimitExceeded', 'LIMIT_EXCEEDED', `rows.${index}: the table has used every row id up to ${tablesLimits.maxRowId}`)
    }
    const row: Row = { id, createdAt: now, updatedAt: now, computed: {} }
    rt.columns.forEach((c, i) => (row[c.name] = decodeValue(c.kind, values[i])))
    return row
  }

  /**
   * Inserts 1 to 1000 rows, all or nothing (decision 0403). Values are validated against the schema;
   * keys that are not columns are ignored with a warning.
   *
   * @example
   * ```ts
   * const { rows } = store.createRows('bot_1', 'ordersTable', [{ total: 12 }, { total: 30 }])
   * ```
   */
  createRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): RowsWriteResult {
    checkBatch(input.length)
    return this.insertAll(botId, ref, input)
  }

  /**
   * Inserts any number of rows in one transaction, all or nothing, with the same validation as `createRows`
   * (used by `importTable`; row indexes in errors count from the first imported row).
   *
   * @example
   * ```ts
   * store.importRows('bot_1', 'ordersTable', rowsFromCsv) // { rows, warnings }
   * ```
   */
  importRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): { inserted: number; warnings: string[] } {
    const { rows, warnings } = this.insertAll(botId, ref, input)
    return { inserted: rows.length, warnings }
  }

  private insertAll(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown>>): RowsWriteResult {
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      const rt = this.runtimeOf(record)
      const prepared = validateRows(rt.columns, input, 'insert', record.factor)
      if (prepared.problems.length > 0) throw rowProblemsError(prepared.problems)
      const now = this.timestamp()
      const rows = prepared.rows.map((encoded, index) => this.insertPrepared(record, rt, encoded, index, now))
      return { rows, warnings: prepared.warnings }
    })()
  }

  private applyPatch(record: TableRecord, rt: TableRuntime, id: number, validated: Map<string, unknown>, index: number, now: string): void {
    if (validated.size === 0) {
      this.prepare(`UPDATE ${quoteIdent(rt.physical)} SET updated_at = ? WHERE id = ?`).run(now, id)
      return
    }
    const columns = [...validated.keys()].map((name) => rt.byName.get(name)!)
    const sets = columns.map((c) => `${quoteIdent(c.physical)} = ?`).join(', ')
    try {
      this.prepare(`UPDATE ${quoteIdent(rt.physical)} SET ${sets}, updated_at = ? WHERE id = ?`).run(...columns.map((c) => encodeValue(c.kind, validated.get(c.name))), now, id)
    } catch (error) {
      if (isUniqueViolation(error) && record.keyColumn) throw this.keyConflict(record, index, validated.get(record.keyColumn) ?? null)
      throw error
    }
  }

  private userData(rt: TableRuntime, raw: Record<string, unknown>): Record<string, unknown> {
    const data: Record<string, unknown> = {}
    for (const c of rt.columns) {
      const value = raw[c.physical]
      if (value !== null && value !== undefined) data[c.name] = decodeValue(c.kind, value)
    }
    return data
  }

  /**
   * Changes the named columns of 1 to 1000 rows by id (`null` clears a column), all or nothing.
   * An unknown id is `ResourceNotFound`.
   *
   * @example
   * ```ts
   * store.updateRows('bot_1', 'ordersTable', [{ id: 1, total: 13 }])
   * ```
   */
  updateRows(botId: string, ref: string, input: ReadonlyArray<Record<string, unknown> & { id: number }>): RowsWriteResult {
    checkBatch(input.length)
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      const rt = this.runtimeOf(record)
      const ids = input.map((r) => r.id)
      const current = this.selectRows(rt, [...new Set(ids)])
      const missing = ids.filter((id) => !current.has(id))
      if (missing.length > 0) {
        throw new TablesStoreError('ResourceNotFound', 'ROW_NOT_FOUND', `rows: no row with id ${[...new Set(missing)].slice(0, 20).join(', ')} in table "${record.name}"; no row was written`)
      }
      const state = new Map([...current].map(([id, raw]) => [id, this.userData(rt, raw)]))
      const prepared = validateRows(rt.columns, input, 'patch', record.factor, (index, changes) => {
        const id = input[index]!.id
        const merged = { ...state.get(id)!, ...changes }
        for (const [k, v] of Object.entries(input[index]!)) if (v === null) delete merged[k]
        state.set(id, merged)
        return merged
      })
      if (prepared.problems.length > 0) throw rowProblemsError(prepared.problems)
      const now = this.timestamp()
      prepared.rows.forEach((encoded, index) => this.applyPatch(record, rt, input[index]!.id, encoded, index, now))
      const after = this.selectRows(rt, [...new Set(ids)])
      return { rows: ids.map((id) => this.rowFromRaw(rt, after.get(id)!)), warnings: prepared.warnings }
    })()
  }

  /**
   * Inserts or updates 1 to 1000 rows matched on `keyColumn` (default `id`), in request order, all or
   * nothing. With `id`, a row without `id` is inserted and a row whose `id` does not exist is refused.
   * With another column, each row needs a value there; more than one existing match is refused.
   *
   * @example
   * ```ts
   * const { inserted, updated } = store.upsertRows('bot_1', 'usersTable', [{ email: 'a@b.c', name: 'Ada' }], 'email')
   * ```
   */
  upsertRows(
    botId: string,
    ref: string,
    input: ReadonlyArray<Record<string, unknown>>,
    keyColumn = 'id',
  ): { inserted: Row[]; updated: Row[]; warnings: string[] } {
    checkBatch(input.length)
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      const rt = this.runtimeOf(record)
      const key = keyColumn === 'id' ? undefined : rt.byName.get(keyColumn)
      if (keyColumn !== 'id' && !key) throw invalidQuery(`keyColumn: "${keyColumn}" is not a column of table "${record.name}"`)
      if (key && !scalarKinds.has(key.kind)) throw invalidQuery(`keyColumn: "${keyColumn}" is a ${key.kind} column; upsert needs a scalar key column`)
      const problems: RowProblem[] = []
      const warnings = new Set<string>()
      const now = this.timestamp()
      const insertedIds: number[] = []
      const updatedIds: number[] = []
      input.forEach((row, index) => {
        let existingId: number | undefined
        if (!key) {
          const id = row['id']
          if (id !== undefined) {
            if (!this.prepare(`SELECT 1 FROM ${quoteIdent(rt.physical)} WHERE id = ?`).get(id)) {
              throw new TablesStoreError('ResourceNotFound', 'ROW_NOT_FOUND', `rows.${index}.id: no row with id ${String(id)} in table "${record.name}"; no row was written`)
            }
            existingId = id as number
          }
        } else {
          const value = row[key.name]
          if (value === undefined || value === null) {
            problems.push({ row: index, column: key.name, message: 'the key column needs a value, received ' + (value === null ? 'null' : 'missing') })
            return
          }
          const problem = validateRows([key], [{ [key.name]: value }], 'patch', record.factor).problems[0]
          if (problem) {
            problems.push({ ...problem, row: index })
            return
          }
          const matches = this.prepare(`SELECT id FROM ${quoteIdent(rt.physical)} WHERE ${quoteIdent(key.physical)} = ? LIMIT 2`)
            .pluck()
            .all(encodeValue(key.kind, value)) as number[]
          if (matches.length > 1) {
            problems.push({ row: index, column: key.name, message: `more than one existing row has ${JSON.stringify(value)}; upsert needs a unique match` })
            return
          }
          existingId = matches[0]
        }
        if (existingId === undefined) {
          const prepared = validateRows(rt.columns, [row], 'insert', record.factor)
          prepared.warnings.forEach((w) => warnings.add(w))
          if (prepared.problems.length > 0) problems.push(...prepared.problems.map((p) => ({ ...p, row: index })))
          else if (problems.length === 0) insertedIds.push(this.insertPrepared(record, rt, prepared.rows[0]!, index, now).id)
        } else {
          const raw = this.selectRows(rt, [existingId]).get(existingId)!
          const prepared = validateRows(rt.columns, [row], 'patch', record.factor, (_i, changes) => {
            const merged = { ...this.userData(rt, raw), ...changes }
            for (const [k, v] of Object.entries(row)) if (v === null) delete merged[k]
            return merged
          })
          prepared.warnings.forEach((w) => warnings.add(w))
          if (prepared.problems.length > 0) problems.push(...prepared.problems.map((p) => ({ ...p, row: index })))
          else if (problems.length === 0) {
            this.applyPatch(record, rt, existingId, prepared.rows[0]!, index, now)
            updatedIds.push(existingId)
          }
        }
      })
      if (problems.length > 0) throw rowProblemsError(problems)
      const all = this.selectRows(rt, [...new Set([...insertedIds, ...updatedIds])])
      const insertedSet = new Set(insertedIds)
      return {
        inserted: [...insertedSet].map((id) => this.rowFromRaw(rt, all.get(id)!)),
        updated: [...new Set(updatedIds)].filter((id) => !insertedSet.has(id)).map((id) => this.rowFromRaw(rt, all.get(id)!)),
        warnings: [...warnings],
      }
    })()
  }

  /**
   * Deletes rows by `ids`, by `filter`, or all of them (exactly one of the three), synchronously.
   *
   * @example
   * ```ts
   * store.deleteRows('bot_1', 'ordersTable', { filter: { total: { $lt: 1 } } }) // { deletedRows: 3 }
   * ```
   */
  deleteRows(botId: string, ref: string, input: { ids?: number[]; filter?: Record<string, unknown>; deleteAllRows?: boolean }): { deletedRows: number } {
    const given = [input.ids !== undefined, input.filter !== undefined, input.deleteAllRows === true].filter(Boolean).length
    if (given !== 1) {
      throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', 'Give exactly one of ids, filter or deleteAllRows: true')
    }
    return this.db.transaction(() => {
      const record = this.loadTable(botId, ref)
      const rt = this.runtimeOf(record)
      const table = quoteIdent(rt.physical)
      if (input.ids !== undefined) {
        if (input.ids.length === 0) return { deletedRows: 0 }
        return { deletedRows: this.db.prepare(`DELETE FROM ${table} WHERE id IN (${input.ids.map(() => '?').join(', ')})`).run(...input.ids).changes }
      }
      if (input.filter !== undefined) {
        const where = filterWhere(rt, input.filter)
        return { deletedRows: this.db.prepare(`DELETE FROM ${table} WHERE ${where.sql}`).run(...where.params).changes }
      }
      return { deletedRows: this.db.prepare(`DELETE FROM ${table}`).run().changes }
    })()
  }

  /**
   * Finds rows (filter, search, select, order, limit/offset) or groups (`group`), as SQL.
   *
   * @example
   * ```ts
   * const { rows, hasMore } = store.findRows('bot_1', 'ordersTable', { filter: { total: { $gte: 10 } }, limit: 50 })
   * ```
   */
  findRows(botId: string, ref: string, query: FindQuery): FindResult {
    const record = this.loadTable(botId, ref)
    const rt = this.runtimeOf(record)
    const plan = planFind(rt, query)
    const compiled = compileFind(rt, plan)
    const raw = this.prepare(compiled.sql).all(...compiled.params) as Array<Record<string, unknown>>
    const hasMore = raw.length > plan.limit
    const rows = raw.slice(0, plan.limit).map(compiled.decode) as Row[]
    const result: FindResult = { rows, hasMore, offset: plan.offset, limit: plan.limit }
    if (plan.warnings.length > 0) result.warnings = plan.warnings
    return result
  }

  // ---------------------------------------------------------------- jobs

  /**
   * The table's most recent jobs (at most 50), newest first.
   *
   * @example
   * ```ts
   * const jobs = store.listJobs('bot_1', 'ordersTable')
   * ```
   */
  listJobs(botId: string, ref: string): TableJob[] {
    const record = this.loadTable(botId, ref)
    const rows = this.prepare('SELECT * FROM tables_jobs WHERE table_id = ? ORDER BY created_at DESC, id DESC LIMIT 50').all(record.id) as JobRow[]
    return rows.map(jobToWire)
  }

  /**
   * Records a new job in `pending`.
   *
   * @example
   * ```ts
   * const job = store.createJob('bot_1', record.id, 'export', { inputFileId: null })
   * ```
   */
  createJob(botId: string, tableId: string, type: TableJob['type'], files: { inputFileId?: string | null; outputFileId?: string | null } = {}): TableJob {
    const now = this.timestamp()
    const id = newTableJobId(this.now())
    this.prepare(
      `INSERT INTO tables_jobs (id, bot_id, table_id, type, status, progress, input_file_id, output_file_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?)`,
    ).run(id, botId, tableId, type, files.inputFileId ?? null, files.outputFileId ?? null, now, now)
    return this.getJob(id)
  }

  /**
   * Moves a job along (`status`, `progress`, `outputFileId`, `error`).
   *
   * @example
   * ```ts
   * store.updateJob(job.id, { status: 'completed', progress: 1, outputFileId: file.id })
   * ```
   */
  updateJob(id: string, change: { status?: TableJob['status']; progress?: number; outputFileId?: string; error?: string }): TableJob {
    const job = this.getJob(id)
    this.prepare('UPDATE tables_jobs SET status = ?, progress = ?, output_file_id = ?, error = ?, updated_at = ? WHERE id = ?').run(
      change.status ?? job.status,
      change.progress ?? job.progress ?? 0,
      change.outputFileId ?? job.outputFileId,
      change.error ?? null,
      this.timestamp(),
      id,
    )
    return this.getJob(id)
  }

  private getJob(id: string): TableJob {
    const row = this.prepare('SELECT * FROM tables_jobs WHERE id = ?').get(id) as JobRow | undefined
    if (!row) throw new TablesStoreError('ResourceNotFound', 'TABLE_NOT_FOUND', `Job "${id}" not found`)
    return jobToWire(row)
  }
}

interface JobRow {
  id: string
  bot_id: string
  table_id: string
  type: TableJob['type']
  status: TableJob['status']
  progress: number
  input_file_id: string | null
  output_file_id: string | null
  created_at: string
  updated_at: string
}

function jobToWire(row: JobRow): TableJob {
  return {
    id: row.id,
    botId: row.bot_id,
    tableId: row.table_id,
    type: row.type,
    status: row.status,
    progress: row.progress,
    inputFileId: row.input_file_id,
    outputFileId: row.output_file_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function frozenError(name: string): TablesStoreError {
  return new TablesStoreError(
    'ResourceLockedConflict',
    'TABLE_FROZEN',
    `Table "${name}" is frozen: its name, schema and key column cannot change (duplicate it to make changes)`,
  )
}

function checkBatch(count: number): void {
  if (count < 1 || count > tablesLimits.rowsPerWrite) {
    throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `rows: expected 1 to ${tablesLimits.rowsPerWrite} rows, received ${count}`)
  }
}

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url')
}

function decodeCursor(token: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[]
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id }
  } catch {
    // fall through
  }
  throw new TablesStoreError('InvalidPayload', 'INVALID_REQUEST', `nextToken: not a token this server issued, received ${JSON.stringify(token.slice(0, 40))}`)
}
