import type { Column } from 'botshelf/api'
import { columnNamePattern, columnTypes, reservedColumnNames, tablesLimits } from 'botshelf/api'
import { inputBounds } from 'botshelf/api'
import { describeValue, shortPath } from 'botshelf/api'
import { isIsoDateTime } from './date-time.js'
import { invalidSchema, TablesStoreError } from './errors.js'
import { jsonBoundsProblem } from './json-bounds.js'
import { compileSafeRegex, RegexTooComplexError } from './safe-regex.js'

/** Which of the three input forms a `schema` was recognised as (decision 0402). */
export type SchemaInputForm = 'json-schema' | 'column-map' | 'example'

/** A column definition before the store assigns `x-zui.index`. */
export type ColumnDraft = Omit<Column, 'x-zui'> & { 'x-zui': Omit<Column['x-zui'], 'index'> & { index?: number } }

/** The result of reading a `schema` input: column drafts in input order, removals, `required` if given. */
export interface SchemaInput {
  form: SchemaInputForm
  columns: Array<{ name: string; draft: ColumnDraft }>
  /** Columns given as `null` or `{ type: 'null' }` (only meaningful for `updateTable`). */
  removed: string[]
  required?: string[]
  $schema?: string
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const JSON_TYPES: ReadonlySet<string> = new Set([...columnTypes, 'integer'])

function looksLikeColumnSchema(value: unknown): boolean {
  if (value === null) return true
  if (!isPlainObject(value)) return false
  if (Object.hasOwn(value, 'x-zui')) return true
  const type = value['type']
  if (typeof type === 'string') return JSON_TYPES.has(type)
  return Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && JSON_TYPES.has(t))
}

/**
 * Tells the three `schema` input forms apart (decision 0402):
 * 1. a JSON Schema: `properties` is an object and `type` is `"object"` or absent;
 * 2. a column map: every value is `null` or an object whose `type` is a JSON type (or that has `x-zui`);
 * 3. otherwise an example object, whose values give the column types.
 *
 * @example
 * ```ts
 * detectSchemaForm({ type: 'object', properties: {} }) // 'json-schema'
 * detectSchemaForm({ name: { type: 'string' } }) // 'column-map'
 * detectSchemaForm({ name: 'Ada', age: 36 }) // 'example'
 * ```
 */
export function detectSchemaForm(input: Record<string, unknown>): SchemaInputForm {
  if (isPlainObject(input['properties']) && (input['type'] === undefined || input['type'] === 'object')) return 'json-schema'
  const values = Object.values(input)
  if (values.length > 0 && values.every(looksLikeColumnSchema)) return 'column-map'
  return 'example'
}

/**
 * Refuses a column name that breaks the rules of decision 0401 (1 to 30 characters, no `.`, not starting with
 * `$`, no control characters, not reserved) or is `__proto__` (docs/decisions/0701-input-bounds.md), naming
 * `path`.
 *
 * @example
 * ```ts
 * checkColumnName('email', 'schema.email') // ok
 * checkColumnName('a.b', 'newName') // throws InvalidJsonSchema
 * ```
 */
export function checkColumnName(name: string, path: string): void {
  if (!columnNamePattern.test(name)) {
    throw invalidSchema(
      `${path}: column name ${JSON.stringify(name)} is invalid: expected 1 to ${tablesLimits.columnNameMax} characters, no ".", not starting with "$"`,
    )
  }
  if (name === inputBounds.forbiddenKey) {
    throw invalidSchema(`${path}: column name "${name}" is not allowed: a row could not hold it as a key (docs/decisions/0701-input-bounds.md)`)
  }
  if ((reservedColumnNames as readonly string[]).includes(name)) {
    throw invalidSchema(`${path}: column name ${JSON.stringify(name)} is reserved (${reservedColumnNames.join(', ')})`)
  }
}

function inferFromExample(value: unknown, path: string): ColumnDraft {
  if (typeof value === 'string') return isIsoDateTime(value) ? { type: 'string', format: 'date-time', 'x-zui': {} } : { type: 'string', 'x-zui': {} }
  if (typeof value === 'number') return { type: 'number', 'x-zui': {} }
  if (typeof value === 'boolean') return { type: 'boolean', 'x-zui': {} }
  if (Array.isArray(value)) {
    const first = value.find((v) => v !== null && v !== undefined)
    if (first === undefined) return { type: 'array', 'x-zui': {} }
    const item = inferFromExample(first, `${path}.0`)
    return { type: 'array', items: { type: item.type }, 'x-zui': {} }
  }
  if (isPlainObject(value)) return { type: 'object', 'x-zui': {} }
  throw invalidSchema(`${path}: cannot infer a column type from ${describeValue(value)}; give an example value or a JSON schema`)
}

/** `x-zui` keys the service sets itself: `index` (the column order) is never taken from the input. */
const SYSTEM_ZUI_KEYS: ReadonlySet<string> = new Set(['index'])

// Every other `x-zui` key (`title`, `placeholder`, ...) is kept and answered back as given (issue 25): clients such
// as the Botpress CLI compare the schema they sent with the one answered.
function readZui(value: unknown, path: string): ColumnDraft['x-zui'] {
  if (value === undefined) return {}
  if (!isPlainObject(value)) throw invalidSchema(`${path}: expected an object, received ${describeValue(value)}`)
  const zui: Record<string, unknown> = {}
  for (const [key, given] of Object.entries(value)) if (!SYSTEM_ZUI_KEYS.has(key) && given !== undefined) zui[key] = given
  if (zui['searchable'] !== undefined && typeof zui['searchable'] !== 'boolean') {
    throw invalidSchema(`${path}.searchable: expected boolean, received ${describeValue(zui['searchable'])}`)
  }
  const computed = zui['computed']
  if (computed !== undefined && (!isPlainObject(computed) || !['ai', 'code', 'workflow'].includes(computed['action'] as string))) {
    throw invalidSchema(`${path}.computed.action: expected "ai" | "code" | "workflow", received ${describeValue(isPlainObject(computed) ? computed['action'] : computed)}`)
  }
  return zui as ColumnDraft['x-zui']
}

function readType(raw: Record<string, unknown>, path: string): { type: Column['type']; nullable?: boolean } {
  let type = raw['type']
  let nullable: boolean | undefined
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null')
    if (nonNull.length !== 1) throw invalidSchema(`${path}.type: expected one JSON type (optionally with "null"), received ${JSON.stringify(type)}`)
    nullable = type.includes('null') ? true : undefined
    type = nonNull[0]
  }
  if (type === 'integer') type = 'number'
  if (typeof type !== 'string' || !(columnTypes as readonly string[]).includes(type)) {
    throw invalidSchema(`${path}.type: expected ${columnTypes.map((t) => JSON.stringify(t)).join(' | ')}, received ${describeValue(type)}`)
  }
  return nullable === undefined ? { type: type as Column['type'] } : { type: type as Column['type'], nullable }
}

function readNested(value: unknown, path: string): { type: Column['type'] } & Record<string, unknown> {
  if (!isPlainObject(value)) throw invalidSchema(`${path}: expected an object, received ${describeValue(value)}`)
  const { type } = readType(value, path)
  return { ...value, type }
}

/**
 * Reads one column definition of the JSON-schema or column-map form. Returns `null` for a removal
 * (`null` or `{ type: 'null' }`). Keeps the keys the wire format names; drops the others.
 *
 * @example
 * ```ts
 * readColumnDefinition({ type: ['string', 'null'], 'x-zui': { searchable: true } }, 'schema.name')
 * // { type: 'string', nullable: true, 'x-zui': { searchable: true } }
 * ```
 */
export function readColumnDefinition(raw: unknown, path: string): ColumnDraft | null {
  if (raw === null) return null
  if (!isPlainObject(raw)) throw invalidSchema(`${path}: expected a JSON schema object, received ${describeValue(raw)}`)
  if (raw['type'] === 'null') return null
  const { type, nullable } = readType(raw, path)
  const draft: ColumnDraft = { type, 'x-zui': readZui(raw['x-zui'], `${path}.x-zui`) }
  if (nullable !== undefined) draft.nullable = nullable
  if (raw['nullable'] !== undefined) {
    if (typeof raw['nullable'] !== 'boolean') throw invalidSchema(`${path}.nullable: expected boolean, received ${describeValue(raw['nullable'])}`)
    draft.nullable = raw['nullable']
  }
  if (typeof raw['description'] === 'string') draft.description = raw['description']
  if (typeof raw['title'] === 'string') draft['title'] = raw['title']
  // `default` is kept as given (any JSON value): botshelf does not fill it in, Botpress's clients read it.
  if (raw['default'] !== undefined) draft['default'] = raw['default']
  if (type === 'number') {
    for (const bound of ['minimum', 'maximum'] as const) {
      const value = raw[bound]
      if (value === undefined) continue
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidSchema(`${path}.${bound}: expected a finite number, received ${describeValue(value)}`)
      draft[bound] = value
    }
    if (typeof draft['minimum'] === 'number' && typeof draft['maximum'] === 'number' && draft['minimum'] > draft['maximum']) {
      throw invalidSchema(`${path}.minimum: expected at most maximum (${draft['maximum']}), received ${draft['minimum']}`)
    }
  }
  if (type === 'string') {
    if (raw['format'] === 'date-time') draft.format = 'date-time'
    if (raw['pattern'] !== undefined) {
      const pattern = raw['pattern']
      if (typeof pattern !== 'string') throw invalidSchema(`${path}.pattern: expected string, received ${describeValue(pattern)}`)
      try {
        compileSafeRegex(pattern, 'u')
      } catch (error) {
        if (error instanceof RegexTooComplexError) throw invalidSchema(`${path}.pattern: the pattern is too complex: ${error.message}`)
        throw invalidSchema(
          `${path}.pattern: ${JSON.stringify(pattern)} is not a valid regular expression in RE2 syntax (no backreferences or lookarounds): ${(error as Error).message}`,
        )
      }
      draft.pattern = pattern
    }
    if (raw['enum'] !== undefined) {
      const values = raw['enum']
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
        throw invalidSchema(`${path}.enum: expected a non-empty array of strings, received ${describeValue(values)}`)
      }
      draft.enum = values as string[]
    }
  }
  if (type === 'array' && raw['items'] !== undefined) draft.items = readNested(raw['items'], `${path}.items`)
  if (type === 'object' && raw['properties'] !== undefined) {
    const props = raw['properties']
    if (!isPlainObject(props)) throw invalidSchema(`${path}.properties: expected an object, received ${describeValue(props)}`)
    draft.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, readNested(v, `${path}.properties.${k}`)]))
  }
  return draft
}

/**
 * Reads a `schema` input of any of the three forms into column drafts, removals and `required`.
 * Checks names (1–30 characters, not reserved, no `.`, not `__proto__`), the 20-column limit of the input itself,
 * and the input bounds (at most 64 levels of nesting, no key `__proto__` anywhere).
 *
 * @example
 * ```ts
 * readSchemaInput({ name: 'Ada', age: 36 }).columns.map((c) => c.name) // ['name', 'age']
 * ```
 */
export function readSchemaInput(input: Record<string, unknown>, path = 'schema'): SchemaInput {
  // Column definitions are stored as given (nested `items`, `properties`, `x-zui`): bound them before anything
  // recursive meets them (docs/decisions/0701-input-bounds.md).
  const outOfBounds = jsonBoundsProblem(input)
  if (outOfBounds?.problem === 'too-deep') {
    throw invalidSchema(`${shortPath([path, ...outOfBounds.path])}: expected at most ${inputBounds.jsonDepthMax} levels of nesting, received more`)
  }
  if (outOfBounds) throw invalidSchema(`${shortPath([path, ...outOfBounds.path])}: expected a key other than "${inputBounds.forbiddenKey}", received "${inputBounds.forbiddenKey}"`)
  const form = detectSchemaForm(input)
  const result: SchemaInput = { form, columns: [], removed: [] }
  let entries: Array<[string, unknown]>
  let entriesPath = path
  if (form === 'json-schema') {
    entries = Object.entries(input['properties'] as Record<string, unknown>)
    entriesPath = `${path}.properties`
    const required = input['required']
    if (required !== undefined) {
      if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
        throw invalidSchema(`${path}.required: expected an array of column names, received ${describeValue(required)}`)
      }
      result.required = [...new Set(required as string[])]
    }
    if (typeof input['$schema'] === 'string') result.$schema = input['$schema']
  } else {
    entries = Object.entries(input)
  }
  for (const [name, raw] of entries) {
    const columnPath = `${entriesPath}.${name}`
    checkColumnName(name, columnPath)
    const draft = form === 'example' ? inferFromExample(raw, columnPath) : readColumnDefinition(raw, columnPath)
    if (draft === null) result.removed.push(name)
    else result.columns.push({ name, draft })
  }
  if (result.columns.length > tablesLimits.columnsPerTable) {
    throw new TablesStoreError(
      'LimitExceeded',
      'LIMIT_EXCEEDED',
      `${path}: a table has at most ${tablesLimits.columnsPerTable} columns, received ${result.columns.length}`,
    )
  }
  return result
}
