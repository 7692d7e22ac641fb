/** Ranking metrics of the quality bench, binary relevance, cut at `k`. */

/** Share of the relevant passages found in the first `k` results. */
export function recallAt(k: number, ranked: readonly string[], relevant: readonly string[]): number {
  const top = new Set(ranked.slice(0, k))
  return relevant.filter((id) => top.has(id)).length / relevant.length
}

/** Normalised discounted cumulative gain: 1 when the relevant passages fill the first places. */
export function ndcgAt(k: number, ranked: readonly string[], relevant: readonly string[]): number {
  const wanted = new Set(relevant)
  let dcg = 0
  ranked.slice(0, k).forEach((id, i) => {
    if (wanted.has(id)) dcg += 1 / Math.log2(i + 2)
  })
  let ideal = 0
  for (let i = 0; i < Math.min(k, relevant.length); i++) ideal += 1 / Math.log2(i + 2)
  return dcg / ideal
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length
}
