/**
 * The bytes a row will store, measured as the tables port's `storedBytes` measures stored rows: the UTF-8 length of
 * the text form of every non-null value of a column the table has (objects and arrays as JSON). What an import's
 * check pass adds up against the byte quotas (decision 1463).
 *
 * @example
 * ```ts
 * rowBytes({ name: 'café', total: 12, extra: 'x' }, new Set(['name', 'total'])) // 7
 * ```
 */
export function rowBytes(row: Readonly<Record<string, unknown>>, columns: ReadonlySet<string>): number {
  let bytes = 0
  for (const [name, value] of Object.entries(row)) {
    if (value === null || value === undefined || !columns.has(name)) continue
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
    bytes += Buffer.byteLength(text, 'utf8')
  }
  return bytes
}
