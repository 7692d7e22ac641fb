import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Where the built console is (`npm run build` writes `dist/console/ui/`): beside the compiled console routes
 * (`dist/console/` → `dist/console/ui/`), or, when the server runs from its TypeScript sources, the service
 * package's `dist/console/ui/`. `undefined` when neither holds an `index.html` and its `assets/` (the console was not built).
 *
 * @example
 * ```ts
 * const dir = findConsoleFolder() // '/app/node_modules/botshelf-server/dist/console/ui' or undefined
 * ```
 */
export function findConsoleFolder(): string | undefined {
  const candidates = [new URL('./ui/', import.meta.url), new URL('../../dist/console/ui/', import.meta.url)]
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate)
    if (existsSync(`${dir}index.html`) && existsSync(`${dir}assets`)) return dir
  }
  return undefined
}
