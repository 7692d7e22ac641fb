// The filter builder's rows, written as the Tables filter language (docs/tables-api.md, "Filter language").

/** An operator the builder offers. */
export type BuilderOperator = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte' | '$in' | '$nin' | '$regex' | '$exists'

/** The operators with the words the builder shows for them. */
export const builderOperators: ReadonlyArray<{ op: BuilderOperator; label: string }> = [
  { op: '$eq', label: 'equals' },
  { op: '$ne', label: 'does not equal' },
  { op: '$gt', label: '>' },
  { op: '$gte', label: '≥' },
  { op: '$lt', label: '<' },
  { op: '$lte', label: '≤' },
  { op: '$in', label: 'is one of (comma separated)' },
  { op: '$nin', label: 'is none of (comma separated)' },
  { op: '$regex', label: 'matches pattern' },
  { op: '$exists', label: 'has a value (true/false)' },
]

/** One row of the builder: a column, an operator and the text typed as operand. */
export interface BuilderCondition {
  column: string
  op: BuilderOperator
  value: string
}

/** The builder's output: the filter, or the first problem naming the condition. */
export type BuiltFilter = { ok: true; filter: Record<string, unknown> | undefined } | { ok: false; error: string }

/** The JSON type of a column, as the table schema says (`id`, `createdAt`, `updatedAt` are number, date, date). */
export type ColumnKind = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'array'

function operand(text: string, kind: ColumnKind, where: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const trimmed = text.trim()
  if (trimmed === 'null') return { ok: true, value: null }
  if (kind === 'number') {
    const number = Number(trimmed)
    if (trimmed === '' || !Number.isFinite(number)) return { ok: false, error: `${where}: expected a number, received "${text}"` }
    return { ok: true, value: number }
  }
  if (kind === 'boolean') {
    if (trimmed !== 'true' && trimmed !== 'false') return { ok: false, error: `${where}: expected true or false, received "${text}"` }
    return { ok: true, value: trimmed === 'true' }
  }
  if (kind === 'object' || kind === 'array') {
    try {
      return { ok: true, value: JSON.parse(trimmed) }
    } catch {
      return { ok: true, value: text }
    }
  }
  return { ok: true, value: text }
}

/**
 * Writes the builder's conditions as one filter (several conditions are ANDed with `$and`, one stays bare).
 * Operands are typed by their column, so `age > 30` sends the number 30; a list operator splits on commas; the
 * word `null` means no value. An operand that does not read as its column's type is reported, naming the row.
 *
 * @example
 * ```ts
 * buildFilter([{ column: 'age', op: '$gt', value: '30' }], { age: 'number' }) // { ok: true, filter: { age: { $gt: 30 } } }
 * ```
 */
export function buildFilter(conditions: ReadonlyArray<BuilderCondition>, kinds: Readonly<Record<string, ColumnKind>>): BuiltFilter {
  const terms: Array<Record<string, unknown>> = []
  for (const [index, condition] of conditions.entries()) {
    const where = `condition ${index + 1} (${condition.column || 'no column'})`
    if (!condition.column) return { ok: false, error: `${where}: choose a column` }
    const kind = kinds[condition.column] ?? 'string'
    let value: unknown
    if (condition.op === '$exists') {
      const read = operand(condition.value, 'boolean', where)
      if (!read.ok) return read
      value = read.value
    } else if (condition.op === '$in' || condition.op === '$nin') {
      const items = condition.value.split(',').map((part) => part.trim()).filter((part) => part !== '')
      if (items.length === 0) return { ok: false, error: `${where}: expected at least one value, separated by commas` }
      const values: unknown[] = []
      for (const item of items) {
        const read = operand(item, kind, where)
        if (!read.ok) return read
        values.push(read.value)
      }
      value = values
    } else if (condition.op === '$regex') {
      value = condition.value
    } else {
      const read = operand(condition.value, kind, where)
      if (!read.ok) return read
      value = read.value
    }
    terms.push({ [condition.column]: { [condition.op]: value } })
  }
  if (terms.length === 0) return { ok: true, filter: undefined }
  if (terms.length === 1) return { ok: true, filter: terms[0] }
  return { ok: true, filter: { $and: terms } }
}

/**
 * Reads the raw JSON mode's text: empty means no filter; otherwise a JSON object (the service checks the rest and
 * answers `InvalidQuery` naming the path).
 *
 * @example
 * ```ts
 * parseRawFilter('{"age": {"$gt": 30}}') // { ok: true, filter: { age: { $gt: 30 } } }
 * ```
 */
export function parseRawFilter(text: string): BuiltFilter {
  if (text.trim() === '') return { ok: true, filter: undefined }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `filter: not valid JSON (${error instanceof Error ? error.message : String(error)})` }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: `filter: expected a JSON object, received ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}` }
  }
  return { ok: true, filter: value as Record<string, unknown> }
}
