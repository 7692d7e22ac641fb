import { z } from 'zod'
import { tableNamePattern, tablesLimits } from './limits.js'

/** The JSON types a column (or a nested property) may have. */
export const columnTypes = ['string', 'number', 'boolean', 'object', 'array', 'null'] as const

/** A JSON type of a column. */
export type ColumnType = (typeof columnTypes)[number]

/**
 * `x-zui.computed`: how a computed column is filled (`ai`: a prompt over `dependencies`; `code`: the body of an async
 * function of `row`; `workflow`: an action of the bot), and whether it runs (`enabled`). See docs/tables-api.md.
 *
 * @example
 * ```ts
 * ComputedColumnSchema.parse({ action: 'code', code: 'return row.a + row.b', dependencies: ['a', 'b'] })
 * ```
 */
export const ComputedColumnSchema = z.object({
  action: z.enum(['ai', 'code', 'workflow']),
  dependencies: z.array(z.string()).optional(),
  prompt: z.string().optional(),
  code: z.string().optional(),
  model: z.string().max(80).optional(),
  workflowId: z.string().max(20).optional(),
  enabled: z.boolean().optional(),
})

/**
 * `x-zui` of a column as the server returns it: `index` (column order, system-managed) is always there.
 *
 * @example
 * ```ts
 * ColumnZuiSchema.parse({ index: 0, searchable: true })
 * ```
 */
export const ColumnZuiSchema = z.looseObject({
  index: z.number().int(),
  id: z.string().optional(),
  searchable: z.boolean().optional(),
  hidden: z.boolean().optional(),
  order: z.number().optional(),
  width: z.number().optional(),
  schemaId: z.string().optional(),
  computed: ComputedColumnSchema.optional(),
  typings: z.string().optional(),
})

const NestedPropertySchema = z.looseObject({ type: z.enum(columnTypes) })

/**
 * One column of a normalized table schema: a JSON Schema with `x-zui`.
 *
 * @example
 * ```ts
 * ColumnSchema.parse({ type: 'string', 'x-zui': { index: 0, searchable: true } })
 * ```
 */
export const ColumnSchema = z.looseObject({
  type: z.enum(columnTypes),
  format: z.literal('date-time').optional(),
  description: z.string().optional(),
  pattern: z.string().optional(),
  enum: z.array(z.string()).optional(),
  items: NestedPropertySchema.optional(),
  nullable: z.boolean().optional(),
  properties: z.record(z.string(), NestedPropertySchema).optional(),
  'x-zui': ColumnZuiSchema,
})

/** A normalized column definition. */
export type Column = z.infer<typeof ColumnSchema>

/**
 * A table's schema as every response carries it (docs/wire-format.md §14, the normalized form): JSON Schema of an
 * object whose properties are the columns.
 *
 * @example
 * ```ts
 * TableSchemaSchema.parse({ type: 'object', additionalProperties: true, properties: { name: { type: 'string', 'x-zui': { index: 0 } } } })
 * ```
 */
export const TableSchemaSchema = z.object({
  $schema: z.string().optional(),
  type: z.literal('object'),
  additionalProperties: z.literal(true),
  properties: z.record(z.string(), ColumnSchema),
  required: z.array(z.string()).optional(),
})

/** A normalized table schema. */
export type TableSchema = z.infer<typeof TableSchemaSchema>

/**
 * Table tags: `{ key: value }`, at most 50, key 1–50 characters, value 1–255 characters (decisions 0401, 0703).
 *
 * @example
 * ```ts
 * TableTagsSchema.parse({ team: 'sales' })
 * ```
 */
export const TableTagsSchema = z
  .record(z.string().min(1).max(tablesLimits.tagKeyMax), z.string().min(1).max(tablesLimits.tagValueMax))
  .check((ctx) => {
    const count = Object.keys(ctx.value).length
    if (count > tablesLimits.tagsMaxCount) ctx.issues.push({ code: 'custom', input: ctx.value, message: `expected at most ${tablesLimits.tagsMaxCount} tags, received ${count}` })
  })

/**
 * A table (docs/wire-format.md §14).
 *
 * @example
 * ```ts
 * const table: Table = TableSchema.parse(response.table)
 * ```
 */
export const TableSchema = z.object({
  id: z.string(),
  name: z.string().min(1),
  factor: z.number().int().min(tablesLimits.factorMin).max(tablesLimits.factorMax).optional(),
  frozen: z.boolean().optional(),
  keyColumn: z.string().nullable().optional(),
  schema: TableSchemaSchema,
  tags: z.record(z.string(), z.string()).optional(),
  isComputeEnabled: z.boolean().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
})

/** A table. */
export type Table = z.infer<typeof TableSchema>

/**
 * A table name as `createTable`, `updateTable` and `duplicateTable` accept it (decision 0401):
 * `/^[A-Za-z0-9_]{1,45}table$/i`.
 *
 * @example
 * ```ts
 * TableNameSchema.parse('ordersTable')
 * ```
 */
export const TableNameSchema = z
  .string()
  .regex(tableNamePattern, 'expected a name ending in "Table", like peopleTable (1 to 45 letters, digits or "_" before "Table", any case)')

/**
 * The `schema` a caller sends: one of three forms (full JSON Schema, an example object, or a map
 * column → JSON Schema). The server tells them apart and normalizes (decision 0402).
 *
 * @example
 * ```ts
 * SchemaInputSchema.parse({ name: 'Ada', age: 36 }) // example-object form
 * ```
 */
export const SchemaInputSchema = z.record(z.string(), z.any())

/** Fields shared by `createTable`, `getOrCreateTable` bodies. */
export const TableSettingsShape = {
  factor: z.number().int().min(tablesLimits.factorMin).max(tablesLimits.factorMax).optional(),
  frozen: z.boolean().optional(),
  /** `null` or `""` means no key column. */
  keyColumn: z.string().max(30).nullable().optional(),
  schema: SchemaInputSchema,
  tags: TableTagsSchema.optional(),
  isComputeEnabled: z.boolean().optional(),
}
