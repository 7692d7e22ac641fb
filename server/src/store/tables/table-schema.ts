import type { Column, TableJsonSchema } from 'botshelf/api'
import { invalidSchema } from './errors.js'
import { regexLimits } from './regex-limits.js'
import { compileSafeRegex } from './safe-regex.js'
import { readSchemaInput, type ColumnDraft } from './schema-input.js'

/**
 * Assembles the normalized schema (form 1 with `x-zui.index` on every column) from columns in index order.
 *
 * @example
 * ```ts
 * buildTableSchema([{ name: 'a', column: { type: 'string', 'x-zui': { index: 0 } } }], [])
 * ```
 */
export function buildTableSchema(columns: ReadonlyArray<{ name: string; column: Column }>, required: readonly string[], $schema?: string): TableJsonSchema {
  const schema: TableJsonSchema = {
    type: 'object',
    additionalProperties: true,
    properties: Object.fromEntries(columns.map(({ name, column }) => [name, column])),
  }
  if (required.length > 0) schema.required = [...required]
  if ($schema !== undefined) schema.$schema = $schema
  return schema
}

/**
 * A column draft with its place in the table (`x-zui.index`), as the normalized schema keeps it.
 *
 * @example
 * ```ts
 * finalizeColumn({ type: 'string', 'x-zui': {} }, 3) // { type: 'string', 'x-zui': { index: 3 } }
 * ```
 */
export function finalizeColumn(draft: ColumnDraft, index: number): Column {
  return { ...draft, 'x-zui': { ...draft['x-zui'], index } } as Column
}

/**
 * The column of a schema named `name`, or `undefined`: an own property only, so a name such as `toString` or
 * `constructor` is a column name like any other and never finds the prototype's members
 * (docs/decisions/0701-input-bounds.md).
 *
 * @example
 * ```ts
 * schemaColumn(table.schema, 'email')?.type // 'string'
 * schemaColumn(table.schema, 'toString') // undefined, unless the table has such a column
 * ```
 */
export function schemaColumn(schema: Pick<TableJsonSchema, 'properties'>, name: string): Column | undefined {
  return Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined
}

/**
 * The columns of a normalized schema in `x-zui.index` order (the order users gave them).
 *
 * @example
 * ```ts
 * orderedColumns(table.schema).map((c) => c.name) // ['name', 'age']
 * ```
 */
export function orderedColumns(schema: TableJsonSchema): Array<{ name: string; column: Column }> {
  return Object.entries(schema.properties)
    .map(([name, column]) => ({ name, column }))
    .sort((a, b) => a.column['x-zui'].index - b.column['x-zui'].index)
}

/**
 * Refuses column patterns that compile to more than `regexLimits.programMax` (1000) instructions together: every
 * write compiles the table's patterns (from a cache), so their total bounds what any request spends compiling
 * them (docs/decisions/0701-input-bounds.md). Each pattern was checked alone when the schema was read.
 *
 * @example
 * ```ts
 * checkColumnPatterns(orderedColumns(schema)) // throws InvalidJsonSchema past 1000 instructions in all
 * ```
 */
export function checkColumnPatterns(columns: ReadonlyArray<{ name: string; column: Column }>): void {
  let instructions = 0
  for (const { name, column } of columns) {
    if (column.pattern === undefined) continue
    instructions += compileSafeRegex(column.pattern, 'u', { bounded: false }).programSize
    if (instructions > regexLimits.programMax) {
      throw invalidSchema(
        `schema.${name}.pattern: the pattern is too complex: the column patterns of the table compile to ${instructions} instructions together, at most ${regexLimits.programMax} are allowed`,
      )
    }
  }
}

/**
 * The normalized schema of a new table from any of the three input forms (decision 0402). A column given as
 * `null` is refused here (it means "remove" only in `updateTable`), and `required` must name columns.
 *
 * @example
 * ```ts
 * newTableSchema({ name: 'Ada', age: 36 }).properties['age'] // { type: 'number', 'x-zui': { index: 1 } }
 * ```
 */
export function newTableSchema(input: Record<string, unknown>): TableJsonSchema {
  const parsed = readSchemaInput(input)
  if (parsed.removed.length > 0) {
    throw invalidSchema(`schema: column "${parsed.removed[0]}" has type null; a column needs a type (null removes a column only in updateTable)`)
  }
  const columns = parsed.columns.map(({ name, draft }, index) => ({ name, column: finalizeColumn(draft, index) }))
  const required = parsed.required ?? []
  for (const name of required) {
    if (!columns.some((c) => c.name === name)) throw invalidSchema(`schema.required: "${name}" is not a column`)
  }
  checkColumnPatterns(columns)
  return buildTableSchema(columns, required, parsed.$schema)
}
