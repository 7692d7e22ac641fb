import { createRequire } from 'node:module'

/**
 * The version of the botshelf package (read from its package.json, the same from `src/` and `dist/`).
 *
 * @example
 * ```ts
 * packageVersion() // '0.1.0'
 * ```
 */
export function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version
  } catch {
    return '0.0.0'
  }
}
