import type { TransferColumnKind } from './transfer-column.js'

/**
 * The value of one imported CSV cell, typed by its column's kind. An empty unquoted cell is "no value"
 * (`undefined`: the key is left out of the row); a quoted empty cell `""` is the empty string. A cell that does
 * not read as its kind stays text, so the row's validation names the column and the bad value.
 *
 * @example
 * ```ts
 * csvCellValue('number', '1.5', false) // 1.5
 * csvCellValue('boolean', 'yes', false) // 'yes' (refused later by validation)
 * csvCellValue('object', '{"a":1}', true) // { a: 1 }
 * csvCellValue('string', '', false) // undefined
 * ```
 */
export function csvCellValue(kind: TransferColumnKind, text: string, quoted: boolean): unknown {
  if (text === '' && !quoted) return undefined
  switch (kind) {
    case 'number': {
      const n = Number(text)
      return text.trim() !== '' && Number.isFinite(n) ? n : text
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text
    case 'object':
    case 'array':
      try {
        return JSON.parse(text) as unknown
      } catch {
        return text
      }
    default:
      return text
  }
}
