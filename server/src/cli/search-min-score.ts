import { UsageError } from './io.js'

/**
 * Reads `--search-min-score` (or `BOTSHELF_SEARCH_MIN_SCORE`; the flag wins): the relevance floor of file search, a
 * number from 0 to 1. Absent: `undefined` (the server's default, 0.05). Anything else is a `UsageError` naming the
 * flag or the variable, what was expected and what was received.
 *
 * @example
 * ```ts
 * parseSearchMinScore({ 'search-min-score': '0.3' }, process.env) // 0.3
 * ```
 */
export function parseSearchMinScore(values: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): number | undefined {
  const flag = values['search-min-score']
  const [text, name] = typeof flag === 'string' ? [flag, '--search-min-score'] : [env['BOTSHELF_SEARCH_MIN_SCORE'], 'BOTSHELF_SEARCH_MIN_SCORE']
  if (text === undefined) return undefined
  const value = text.trim() === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`${name}: expected a number from 0 to 1, received ${JSON.stringify(text)}`)
  return value
}
