export { fuseByReciprocalRank, RRF_K, type FuseOptions, type FusedResult } from './fuse-by-reciprocal-rank.js'
