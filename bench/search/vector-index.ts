import { dot } from '../../server/src/search/embedding/index.js'

/** Exact cosine search over unit vectors (what sqlite-vec's brute-force scan computes). */
export class ExactVectorIndex {
  constructor(
    private readonly ids: readonly string[],
    private readonly vectors: readonly Float32Array[],
  ) {}

  search(query: Float32Array, limit: number): string[] {
    const scored = this.vectors.map((vector, i) => ({ i, score: dot(query, vector) }))
    scored.sort((a, b) => b.score - a.score || a.i - b.i)
    return scored.slice(0, limit).map(({ i }) => this.ids[i]!)
  }
}
