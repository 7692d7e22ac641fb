export { fuseByReciprocalRank, RRF_K, type FuseOptions, type FusedResult } from './fuse-by-reciprocal-rank.js'
export { keepLexicalTop, LEXICAL_TOP_RANK } from './keep-lexical-top.js'
export { STOP_WORDS } from './stop-words.js'
