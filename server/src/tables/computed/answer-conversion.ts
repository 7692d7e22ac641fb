import type { ComputedColumn } from './computed-column.js'

/** A computed value that fits its column, or why it does not. */
export type Converted = { ok: true; value: unknown } | { ok: false; reason: string }

/**
 * Whether a column's values are asked of the model as JSON (objects and arrays: the column's schema is sent as a
 * JSON schema) rather than as plain text.
 *
 * @example
 * ```ts
 * asksForJson({ schema: { type: 'object' } } as ComputedColumn) // true
 * ```
 */
export function asksForJson(column: Pick<ComputedColumn, 'schema'>): boolean {
  return column.schema.type === 'object' || column.schema.type === 'array'
}

/**
 * Turns a model's answer into a value of the column's type: numbers, booleans and dates parsed, enums matched, JSON
 * read (the `value` of the `{ value }` object asked for). An answer that does not fit is a reason, not a value.
 *
 * @example
 * ```ts
 * convertAnswer(' 4.5 ', { type: 'number' }) // { ok: true, value: 4.5 }
 * convertAnswer('maybe', { type: 'boolean' }) // { ok: false, reason: 'expected true or false, received "maybe"' }
 * ```
 */
export function convertAnswer(answer: string, schema: ComputedColumn['schema']): Converted {
  const text = unquote(stripFence(answer.trim()))
  const fail = (expected: string): Converted => ({ ok: false, reason: `the model's answer does not fit the column: expected ${expected}, received ${JSON.stringify(answer.slice(0, 120))}` })
  switch (schema.type) {
    case 'number': {
      const match = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.exec(text.replace(/,(?=\d{3}\b)/g, ''))
      return match ? { ok: true, value: Number(match[0]) } : fail('a number')
    }
    case 'boolean': {
      const word = text.toLowerCase().replace(/[.!]$/, '')
      if (['true', 'yes'].includes(word)) return { ok: true, value: true }
      if (['false', 'no'].includes(word)) return { ok: true, value: false }
      return fail('true or false')
    }
    case 'string': {
      if (schema.format === 'date-time') {
        const time = Date.parse(text)
        return Number.isNaN(time) ? fail('a date and time') : { ok: true, value: new Date(time).toISOString() }
      }
      if (schema.enum) {
        const found = schema.enum.find((option) => option.toLowerCase() === text.toLowerCase().replace(/[.!]$/, ''))
        return found !== undefined ? { ok: true, value: found } : fail(`one of ${schema.enum.map((option) => JSON.stringify(option)).join(', ')}`)
      }
      return { ok: true, value: text }
    }
    case 'object':
    case 'array': {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return fail(`JSON (${schema.type === 'object' ? 'an object' : 'an array'})`)
      }
      const value = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && 'value' in parsed ? (parsed as { value: unknown }).value : parsed
      const fits = schema.type === 'array' ? Array.isArray(value) : value !== null && typeof value === 'object' && !Array.isArray(value)
      return fits ? { ok: true, value } : fail(schema.type === 'object' ? 'an object' : 'an array')
    }
    default:
      return { ok: true, value: text }
  }
}

/** The content of a Markdown code fence (models often wrap JSON in one). */
function stripFence(text: string): string {
  const fence = /^```[a-zA-Z]*\n([\s\S]*?)\n?```$/.exec(text)
  return fence ? fence[1]!.trim() : text
}

/** A scalar answer without the quotes a model sometimes puts around it. */
function unquote(text: string): string {
  return /^"[^"]*"$/.test(text) ? text.slice(1, -1) : text
}
