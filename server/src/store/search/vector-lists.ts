/**
 * The math of the approximate vector stage (decision 0821): spherical k-means over unit vectors packed in one
 * `Float32Array` (vector i at `i * dimensions`), the nearest list of a vector, and the lists ranked for a query.
 * Pure and synchronous: the SQLite adapter runs training in a worker thread and the rest on its connection.
 */

/** Knobs of the approximate stage, with the values chosen by measurement (bench/search/latency.bench.ts). */
export interface VectorListsSettings {
  /** Vectors of one bot and embedder at which lists are trained; fewer are searched exactly. */
  minVectors: number
  /** Lists a query probes first (the closest centroids), e.g. 28: about 9 % of 100,000 vectors in 316 lists. */
  probes: number
  /** Recall@10 the lists must reach on probe queries drawn from the data (`estimateRecall`) to be kept, e.g. 0.95. */
  minRecall: number
  /**
   * Estimated recall@10 a bot's probe count is chosen for (decision 1478): at training, the smallest count from
   * `probes` up (×1.25 steps, at most a quarter of the lists) whose estimate on queries drawn from the data reaches
   * it, e.g. 0.98. The estimate runs above the recall of users' short questions (0.986 against 0.971 at 100,000
   * passages), hence the margin over `minRecall`.
   */
  targetRecall: number
}

/**
 * The defaults: lists past 20,000 vectors (exact search stays under ~25 ms below that on a 2-core machine), 28 lists
 * probed (recall@10 of text queries against exact search ≥ 0.95 from 12,000 to 100,000 passages of real prose,
 * measured; decision 0821), lists kept only when their recall estimated on the data reaches 0.95.
 *
 * @example
 * ```ts
 * const lists = listCountFor(100_000) // 316
 * const probes = probeCountFor(lists, VECTOR_LISTS_DEFAULTS.probes) // 28
 * ```
 */
export const VECTOR_LISTS_DEFAULTS: VectorListsSettings = { minVectors: 20_000, probes: 28, minRecall: 0.95, targetRecall: 0.98 }

/**
 * How many lists to train for `vectors` vectors: the square root, at least one.
 *
 * @example
 * ```ts
 * listCountFor(100_000) // 316
 * ```
 */
export function listCountFor(vectors: number): number {
  return Math.max(1, Math.round(Math.sqrt(vectors)))
}

/**
 * How many lists a query probes first: `probes`, at least one and at most `lists`.
 *
 * @example
 * ```ts
 * probeCountFor(316, 28) // 28
 * probeCountFor(20, 28) // 20
 * ```
 */
export function probeCountFor(lists: number, probes: number): number {
  return Math.min(lists, Math.max(1, Math.floor(probes)))
}

/** Dot product of vector `i` of `packed` (stride `dimensions`) with centroid `c` of `centroids`. */
function dotAt(packed: Float32Array, i: number, centroids: Float32Array, c: number, dimensions: number): number {
  let sum = 0
  const a = i * dimensions
  const b = c * dimensions
  for (let j = 0; j < dimensions; j++) sum += packed[a + j]! * centroids[b + j]!
  return sum
}

/**
 * The list whose centroid is closest (largest dot product) to vector `index` of `packed`.
 *
 * @example
 * ```ts
 * nearestList(centroids, 356, vector) // 17
 * ```
 */
export function nearestList(centroids: Float32Array, dimensions: number, packed: Float32Array, index = 0): number {
  const lists = centroids.length / dimensions
  let best = -Infinity
  let bestList = 0
  for (let c = 0; c < lists; c++) {
    const score = dotAt(packed, index, centroids, c, dimensions)
    if (score > best) {
      best = score
      bestList = c
    }
  }
  return bestList
}

/**
 * Every list ordered from the closest centroid to the farthest for a query vector.
 *
 * @example
 * ```ts
 * const order = rankLists(centroids, 356, query) // Int32Array [17, 4, 230, ...]
 * ```
 */
export function rankLists(centroids: Float32Array, dimensions: number, query: Float32Array): Int32Array {
  const lists = centroids.length / dimensions
  const scores = new Float64Array(lists)
  for (let c = 0; c < lists; c++) scores[c] = dotAt(query, 0, centroids, c, dimensions)
  return Int32Array.from({ length: lists }, (_, c) => c).sort((a, b) => scores[b]! - scores[a]! || a - b)
}

/**
 * Dot products of rows `first … first + rows - 1` of `a` with every row of `b` (both packed, stride `dimensions`),
 * into `out[r * bRows + c]`. Four rows of `a` against two of `b` at a time, each sum accumulated over the
 * dimensions in order: the same float64 values as `dotAt`, about three times faster in V8 (each loaded component
 * serves several products). The bulk of training at a million vectors (decision 1482).
 */
function dotBlock(a: Float32Array, first: number, rows: number, b: Float32Array, bRows: number, dimensions: number, out: Float64Array): void {
  let r = 0
  for (; r + 4 <= rows; r += 4) {
    const a0 = (first + r) * dimensions
    const a1 = a0 + dimensions
    const a2 = a1 + dimensions
    const a3 = a2 + dimensions
    let c = 0
    for (; c + 2 <= bRows; c += 2) {
      const b0 = c * dimensions
      const b1 = b0 + dimensions
      let s00 = 0, s01 = 0, s10 = 0, s11 = 0, s20 = 0, s21 = 0, s30 = 0, s31 = 0 // prettier-ignore
      for (let j = 0; j < dimensions; j++) {
        const y0 = b[b0 + j]!
        const y1 = b[b1 + j]!
        const x0 = a[a0 + j]!
        const x1 = a[a1 + j]!
        const x2 = a[a2 + j]!
        const x3 = a[a3 + j]!
        s00 += x0 * y0
        s01 += x0 * y1
        s10 += x1 * y0
        s11 += x1 * y1
        s20 += x2 * y0
        s21 += x2 * y1
        s30 += x3 * y0
        s31 += x3 * y1
      }
      out[r * bRows + c] = s00
      out[r * bRows + c + 1] = s01
      out[(r + 1) * bRows + c] = s10
      out[(r + 1) * bRows + c + 1] = s11
      out[(r + 2) * bRows + c] = s20
      out[(r + 2) * bRows + c + 1] = s21
      out[(r + 3) * bRows + c] = s30
      out[(r + 3) * bRows + c + 1] = s31
    }
    for (; c < bRows; c++) for (let k = 0; k < 4; k++) out[(r + k) * bRows + c] = dotAt(a, first + r + k, b, c, dimensions)
  }
  for (; r < rows; r++) for (let c = 0; c < bRows; c++) out[r * bRows + c] = dotAt(a, first + r, b, c, dimensions)
}

/** Vectors per block of `assignLists` and `recallByProbes` (a multiple of 4). */
const BLOCK = 4

/**
 * The nearest list of every vector of `packed`: the same lists as `nearestList` vector by vector (same sums, first
 * of equal scores), computed four vectors at a time.
 *
 * @example
 * ```ts
 * const listOf = assignLists(vectors, 356, centroids) // Int32Array, one list per vector
 * ```
 */
export function assignLists(packed: Float32Array, dimensions: number, centroids: Float32Array): Int32Array {
  const count = packed.length / dimensions
  const lists = centroids.length / dimensions
  const out = new Int32Array(count)
  const scores = new Float64Array(BLOCK * lists)
  for (let first = 0; first < count; first += BLOCK) {
    const rows = Math.min(BLOCK, count - first)
    dotBlock(packed, first, rows, centroids, lists, dimensions, scores)
    for (let r = 0; r < rows; r++) {
      let best = -Infinity
      let bestList = 0
      for (let c = 0; c < lists; c++) {
        const score = scores[r * lists + c]!
        if (score > best) {
          best = score
          bestList = c
        }
      }
      out[first + r] = bestList
    }
  }
  return out
}

/** Options of `trainLists`. */
export interface TrainListsOptions {
  /** Number of lists (centroids), e.g. `listCountFor(n)`. */
  lists: number
  /** Lloyd iterations (default 8). */
  iterations?: number
  /** Vectors sampled for training, per list (default 32): the rest are only assigned. */
  samplePerList?: number
  /** Seed of the sampling, so a training is repeatable (default 1). */
  seed?: number
}

/** A small deterministic generator (a linear congruential one): training needs repeatability, not quality. */
function generator(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0
    return state / 2 ** 32
  }
}

function normalizeRow(values: Float32Array, row: number, dimensions: number): boolean {
  let sum = 0
  const at = row * dimensions
  for (let j = 0; j < dimensions; j++) sum += values[at + j]! * values[at + j]!
  if (sum === 0) return false
  const scale = 1 / Math.sqrt(sum)
  for (let j = 0; j < dimensions; j++) values[at + j]! *= scale
  return true
}

/**
 * Spherical k-means on a sample of the vectors: centroids start at distinct sampled vectors, each iteration assigns
 * the sample to the closest centroid by dot product and sets each centroid to the normalised mean of its members;
 * an emptied list restarts at a random sampled vector. Returns the centroids packed (`lists × dimensions`).
 *
 * @example
 * ```ts
 * const centroids = trainLists(vectors, 356, { lists: listCountFor(vectors.length / 356) })
 * ```
 */
export function trainLists(packed: Float32Array, dimensions: number, options: TrainListsOptions): Float32Array {
  const count = packed.length / dimensions
  const lists = Math.max(1, Math.min(options.lists, count))
  const random = generator(options.seed ?? 1)
  const sampleSize = Math.min(count, lists * (options.samplePerList ?? 32))
  // A partial Fisher-Yates shuffle of the indices gives a sample without repeats.
  const order = Int32Array.from({ length: count }, (_, i) => i)
  for (let i = 0; i < sampleSize; i++) {
    const j = i + Math.floor(random() * (count - i))
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  const sample = new Float32Array(sampleSize * dimensions)
  for (let s = 0; s < sampleSize; s++) sample.set(packed.subarray(order[s]! * dimensions, (order[s]! + 1) * dimensions), s * dimensions)
  const centroids = new Float32Array(lists * dimensions)
  for (let c = 0; c < lists; c++) centroids.set(sample.subarray(c * dimensions, (c + 1) * dimensions), c * dimensions)
  const members = new Int32Array(sampleSize)
  const sizes = new Int32Array(lists)
  for (let iteration = 0; iteration < (options.iterations ?? 8); iteration++) {
    members.set(assignLists(sample, dimensions, centroids))
    centroids.fill(0)
    sizes.fill(0)
    for (let s = 0; s < sampleSize; s++) {
      const c = members[s]!
      sizes[c]!++
      const a = s * dimensions
      const b = c * dimensions
      for (let j = 0; j < dimensions; j++) centroids[b + j]! += sample[a + j]!
    }
    for (let c = 0; c < lists; c++) {
      if (sizes[c]! > 0 && normalizeRow(centroids, c, dimensions)) continue
      const s = Math.floor(random() * sampleSize)
      centroids.set(sample.subarray(s * dimensions, (s + 1) * dimensions), c * dimensions)
    }
  }
  return centroids
}

/** Options of `estimateRecall`. */
export interface EstimateRecallOptions {
  /** Lists each probe scans, e.g. `probeCountFor(lists, 28)`. */
  probes: number
  /** Probe queries (default 64). */
  queries?: number
  /** Results compared per query (default 10). */
  k?: number
  /** Seed of the drawing of queries (default 2). */
  seed?: number
}

/**
 * Recall@k of probing `probes` lists against exact search, on queries drawn from the data itself: the normalised
 * sum of two random vectors (a point between two passages, as a question often is). A result as close as the k-th
 * exact one counts as found (ties). Data with no cluster structure (random directions) scores far below 0.95 here,
 * which is how the lists decide not to be kept (decision 0821).
 *
 * @example
 * ```ts
 * estimateRecall(vectors, 356, centroids, assignment, { probes: 28 }) // 0.98
 * ```
 */
export function estimateRecall(packed: Float32Array, dimensions: number, centroids: Float32Array, assignment: Int32Array, options: EstimateRecallOptions): number {
  const count = packed.length / dimensions
  const k = Math.min(options.k ?? 10, count)
  const queries = options.queries ?? 64
  const random = generator(options.seed ?? 2)
  const query = new Float32Array(dimensions)
  const similarities = new Float64Array(count)
  let found = 0
  for (let q = 0; q < queries; q++) {
    const a = Math.floor(random() * count) * dimensions
    const b = Math.floor(random() * count) * dimensions
    for (let j = 0; j < dimensions; j++) query[j] = packed[a + j]! + packed[b + j]!
    if (!normalizeRow(query, 0, dimensions)) query.set(packed.subarray(a, a + dimensions))
    for (let i = 0; i < count; i++) similarities[i] = dotAt(packed, i, query, 0, dimensions)
    const kth = Float64Array.from(similarities).sort()[count - k]!
    const probed = new Uint8Array(centroids.length / dimensions)
    for (const list of rankLists(centroids, dimensions, query).subarray(0, options.probes)) probed[list] = 1
    const best: number[] = []
    for (let i = 0; i < count; i++) if (probed[assignment[i]!]) best.push(i)
    best.sort((x, y) => similarities[y]! - similarities[x]!)
    for (const i of best.slice(0, k)) if (similarities[i]! >= kth - 1e-6) found++
  }
  return found / (queries * k)
}

/**
 * The probe counts a training considers (decision 1478): `probes` (at most every list), then ×1.25 steps up to a
 * quarter of the lists. At 316 lists and 28 probes: 28, 35, 44, 55, 69, 79; at 1,000 lists: 28 up to 250.
 *
 * @example
 * ```ts
 * probeCandidates(1_000, 28) // [28, 35, 44, 55, 69, 87, 109, 137, 172, 215, 250]
 * ```
 */
export function probeCandidates(lists: number, probes: number): number[] {
  const first = probeCountFor(lists, probes)
  const cap = Math.max(first, Math.floor(lists / 4))
  const counts = [first]
  while (counts[counts.length - 1]! < cap) counts.push(Math.min(cap, Math.ceil(counts[counts.length - 1]! * 1.25)))
  return counts
}

/** Options of `recallByProbes`. */
export interface RecallByProbesOptions {
  /** Probe counts to estimate, ascending, e.g. `probeCandidates(lists, 28)`. */
  probeCounts: ReadonlyArray<number>
  /** Probe queries (default 64). */
  queries?: number
  /** Results compared per query (default 10). */
  k?: number
  /** Seed of the drawing of queries (default 2, the queries of `estimateRecall`). */
  seed?: number
}

/**
 * Estimated recall@k of probing the closest `p` lists, for every `p` of `probeCounts`, in one pass over the data:
 * queries are drawn as in `estimateRecall` (normalised sums of two data vectors); an exact top-k vector is found by a
 * probe of `p` lists exactly when its list ranks among the query's `p` closest centroids. The top k is kept by
 * insertion (no sort of every similarity), so a million vectors cost one pass of dot products per query.
 *
 * @example
 * ```ts
 * recallByProbes(vectors, 356, centroids, assignment, { probeCounts: [28, 35, 44] }) // [0.93, 0.96, 0.98]
 * ```
 */
export function recallByProbes(packed: Float32Array, dimensions: number, centroids: Float32Array, assignment: Int32Array, options: RecallByProbesOptions): number[] {
  const count = packed.length / dimensions
  const lists = centroids.length / dimensions
  const k = Math.min(options.k ?? 10, count)
  const queries = options.queries ?? 64
  const random = generator(options.seed ?? 2)
  // Every query first (the same draws, in the same order, as one query at a time), then one pass over the data
  // comparing four vectors with every query at a time.
  const drawn = new Float32Array(queries * dimensions)
  for (let q = 0; q < queries; q++) {
    const a = Math.floor(random() * count) * dimensions
    const b = Math.floor(random() * count) * dimensions
    const at = q * dimensions
    for (let j = 0; j < dimensions; j++) drawn[at + j] = packed[a + j]! + packed[b + j]!
    if (!normalizeRow(drawn, q, dimensions)) drawn.set(packed.subarray(a, a + dimensions), at)
  }
  const topIndex = new Int32Array(queries * k)
  const topScore = new Float64Array(queries * k).fill(-Infinity)
  const scores = new Float64Array(BLOCK * queries)
  for (let first = 0; first < count; first += BLOCK) {
    const rows = Math.min(BLOCK, count - first)
    dotBlock(packed, first, rows, drawn, queries, dimensions, scores)
    for (let r = 0; r < rows; r++) {
      for (let q = 0; q < queries; q++) {
        const score = scores[r * queries + q]!
        const top = q * k
        if (score <= topScore[top + k - 1]!) continue
        let at = k - 1
        while (at > 0 && topScore[top + at - 1]! < score) {
          topScore[top + at] = topScore[top + at - 1]!
          topIndex[top + at] = topIndex[top + at - 1]!
          at--
        }
        topScore[top + at] = score
        topIndex[top + at] = first + r
      }
    }
  }
  const found = new Array<number>(options.probeCounts.length).fill(0)
  const rankOf = new Int32Array(lists)
  for (let q = 0; q < queries; q++) {
    rankLists(centroids, dimensions, drawn.subarray(q * dimensions, (q + 1) * dimensions)).forEach((list, rank) => (rankOf[list] = rank))
    options.probeCounts.forEach((probes, c) => {
      for (let t = 0; t < k; t++) if (rankOf[assignment[topIndex[q * k + t]!]!]! < probes) found[c]!++
    })
  }
  return found.map((hits) => hits / (queries * k))
}
