/**
 * The text of a row that gets embedded: the values of its searchable columns in schema order, one per line,
 * strings as they are and other values as JSON; empty values are left out. The same function runs on every
 * backend, so a row has the same vector whichever stores it.
 *
 * @example
 * ```ts
 * searchableText(['Blue kettle', null, 12]) // 'Blue kettle\n12'
 * ```
 */
export function searchableText(values: readonly unknown[]): string {
  const parts: string[] = []
  for (const value of values) {
    if (value === null || value === undefined) continue
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (text.trim() !== '') parts.push(text)
  }
  return parts.join('\n')
}
