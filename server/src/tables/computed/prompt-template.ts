/**
 * Fills a prompt's `{{columnName}}` placeholders with the row's values: text as is, other values as JSON, an empty
 * or missing value as nothing. Spaces inside the braces are allowed (`{{ review }}`).
 *
 * @example
 * ```ts
 * renderPrompt('Is this review positive? {{review}}', { review: 'Great phone' }) // 'Is this review positive? Great phone'
 * ```
 */
export function renderPrompt(prompt: string, row: Readonly<Record<string, unknown>>): string {
  return prompt.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => {
    const value = Object.hasOwn(row, name) ? row[name] : undefined
    if (value === null || value === undefined) return ''
    return typeof value === 'string' ? value : JSON.stringify(value)
  })
}
