import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Where the built console is (`npm run build` writes `dist/console/`): beside the compiled server
 * (`dist/server/console/` → `dist/console/`), or, when the server runs from its TypeScript sources, the
 * repository's `dist/console/`. `undefined` when neither holds an `index.html` and its `assets/` (the console was not built).
 *
 * @example
 * ```ts
 * const dir = findConsoleFolder() // '/app/node_modules/botshelf/dist/console' or undefined
 * ```
 */
export function findConsoleFolder(): string | undefined {
  const candidates = [new URL('../../console/', import.meta.url), new URL('../../../dist/console/', import.meta.url)]
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate)
    if (existsSync(`${dir}index.html`) && existsSync(`${dir}assets`)) return dir
  }
  return undefined
}
