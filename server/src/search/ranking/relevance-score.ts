/**
 * What the relevance score is computed from, for one candidate passage of one query. Only the query and the passage
 * count (and the best of the query's candidates), never corpus-wide statistics, so adding unrelated files does not
 * move a score.
 *
 * @example
 * ```ts
 * const evidence: RelevanceEvidence = { cosine: 0.62, coverage: 1 }
 * ```
 */
export interface RelevanceEvidence {
  /** Cosine similarity of the query's vector and the passage's (`null`: no vector of the query's embedder). */
  cosine: number | null
  /** Share of the query's terms the passage holds, longer and rarer terms counting more (`candidateCoverages`), 0 to 1. */
  coverage: number
}

/**
 * What the query's candidates show together: a passage holding far fewer of the query's terms than the best one is
 * less likely the answer. (A gap in cosine was measured too and left out: heading passages, short and close to any
 * short query, would push the passages under them out.)
 */
export interface BestEvidence {
  /** The best cosine among the candidates (`null`: none has a comparable vector). */
  cosine: number | null
  /** The best coverage among the candidates. */
  coverage: number
  /** How many candidates hold every term of the query: one or a few means the terms are rare, an exact match. */
  fullMatches: number
}

/** Up to this many passages holding every query term make each of them an exact rare-term match. */
export const RARE_MATCHES = 3

/**
 * Logistic model of "this passage answers the query" over the evidence, fitted on the labelled question set plus the
 * exact rare-term probes (`npm run bench:calibration`, decision 1431). Order: bias, cosine, coverage,
 * cosine × coverage, coverage − best coverage, full coverage (1 when every term is held), rare
 * exact match (full coverage held by at most {@link RARE_MATCHES} candidates).
 */
export const HYBRID_WEIGHTS: readonly number[] = [-7.266, 9.502, 5.592, -8.533, 4.93, -0.761, 4.067]

/** The same model for a passage without a comparable vector (lexical index, another embedder): bias, coverage, gap, full, rare. */
export const LEXICAL_WEIGHTS: readonly number[] = [-4.311, 3.629, 3.788, -1.346, 3.985]

/** Coverage counted as "every term held" (rounding aside). */
export const FULL_COVERAGE = 0.999

/**
 * The features of the model, in the order of {@link HYBRID_WEIGHTS} (with a cosine) or {@link LEXICAL_WEIGHTS}.
 *
 * @example
 * ```ts
 * relevanceFeatures({ cosine: 0.6, coverage: 1 }, { cosine: 0.6, coverage: 1, fullMatches: 1 }) // [1, 0.6, 1, 0.6, 0, 1, 1]
 * ```
 */
export function relevanceFeatures(evidence: RelevanceEvidence, best: BestEvidence): number[] {
  const full = evidence.coverage >= FULL_COVERAGE ? 1 : 0
  const rare = full === 1 && best.fullMatches <= RARE_MATCHES ? 1 : 0
  const coverageGap = evidence.coverage - best.coverage
  if (evidence.cosine === null || best.cosine === null) return [1, evidence.coverage, coverageGap, full, rare]
  const cosine = evidence.cosine
  return [1, cosine, evidence.coverage, cosine * evidence.coverage, coverageGap, full, rare]
}

/**
 * The relevance score in [0, 1]: the calibrated probability that the passage answers the query, from its evidence.
 * A score means the same for every query and dataset: among results scored about 0.6, about six in ten were the
 * labelled answer on the quality set (bench/README.md has the calibration table).
 *
 * @example
 * ```ts
 * relevanceScore({ cosine: 0.71, coverage: 1 }, { cosine: 0.71, coverage: 1, fullMatches: 1 }) // 0.9
 * ```
 */
export function relevanceScore(evidence: RelevanceEvidence, best: BestEvidence, weights?: { hybrid: readonly number[]; lexical: readonly number[] }): number {
  const features = relevanceFeatures(evidence, best)
  const w = features.length === LEXICAL_WEIGHTS.length ? (weights?.lexical ?? LEXICAL_WEIGHTS) : (weights?.hybrid ?? HYBRID_WEIGHTS)
  let z = 0
  for (let i = 0; i < features.length; i++) z += features[i]! * w[i]!
  return 1 / (1 + Math.exp(-z))
}
