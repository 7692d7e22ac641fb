export { createOfflineEmbedder, type OfflineEmbedderOptions } from './offline-embedder.js'
export { defaultWordVectorsPath, WORD_VECTORS_RELATIVE_PATH } from './default-word-vectors-path.js'
export {
  convertWinkEmbeddings,
  readWordVectorsFile,
  readWordVectorsHeader,
  DEFAULT_MAX_WORDS,
  type ConvertWinkOptions,
  type ConvertWinkResult,
  type WordVectors,
  type WordVectorsHeader,
} from './word-vectors-file.js'
export { STOP_WORDS } from '../../ranking/stop-words.js'
export { wordsOf } from './words-of.js'
