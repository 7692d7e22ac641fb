import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where `npm run build` writes the offline embedder's word vectors, relative to the package root. */
export const WORD_VECTORS_RELATIVE_PATH = 'dist/word-vectors/wink-sg100-int8.bin'

/**
 * The path of the word-vector file inside the installed botshelf-server package: found by walking up from this module to
 * the package's `package.json`, so it is the same whether botshelf runs from `dist/` or from its sources.
 *
 * @example
 * ```ts
 * defaultWordVectorsPath() // "/app/node_modules/botshelf-server/dist/word-vectors/wink-sg100-int8.bin"
 * ```
 */
export function defaultWordVectorsPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(folder, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'botshelf-server') {
      return join(folder, WORD_VECTORS_RELATIVE_PATH)
    }
    const parent = dirname(folder)
    if (parent === folder) return join(dirname(fileURLToPath(import.meta.url)), '../..', WORD_VECTORS_RELATIVE_PATH)
    folder = parent
  }
}
