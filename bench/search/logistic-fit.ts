// The relevance model's fit, shared by the calibration bench and the paraphrase sweep: logistic regression by
// Newton's method, lightly regularised (a handful of features, some ten thousand rows).

/** The logistic function. @example `sigmoid(0) // 0.5` */
export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z))

/**
 * Fits the weights of a logistic model to rows of features `x` and labels `y` (0 or 1).
 *
 * @example
 * ```ts
 * const weights = fitLogistic([{ x: [1, 0.2], y: 0 }, { x: [1, 0.9], y: 1 }], 30)
 * ```
 */
export function fitLogistic(data: ReadonlyArray<{ x: number[]; y: number }>, iterations = 30): number[] {
  const n = data[0]!.x.length
  let w = new Array<number>(n).fill(0)
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array<number>(n).fill(0)
    const hessian = Array.from({ length: n }, () => new Array<number>(n).fill(0))
    for (const { x, y } of data) {
      const p = sigmoid(x.reduce((s, v, j) => s + v * w[j]!, 0))
      for (let j = 0; j < n; j++) {
        gradient[j] = gradient[j]! + (p - y) * x[j]! + (1e-3 * w[j]!) / data.length
        for (let k = 0; k < n; k++) hessian[j]![k] = hessian[j]![k]! + p * (1 - p) * x[j]! * x[k]!
      }
    }
    for (let j = 0; j < n; j++) hessian[j]![j] = hessian[j]![j]! + 1e-3
    const step = solveLinear(hessian, gradient)
    w = w.map((v, j) => v - step[j]!)
  }
  return w
}

/**
 * Solves `a · x = b` by Gauss-Jordan elimination with partial pivoting (small dense systems).
 *
 * @example
 * ```ts
 * solveLinear([[2, 0], [0, 4]], [2, 8]) // [1, 2]
 * ```
 */
export function solveLinear(a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]!])
  for (let i = 0; i < n; i++) {
    let pivot = i
    for (let r = i + 1; r < n; r++) if (Math.abs(m[r]![i]!) > Math.abs(m[pivot]![i]!)) pivot = r
    ;[m[i], m[pivot]] = [m[pivot]!, m[i]!]
    for (let r = 0; r < n; r++) {
      if (r === i) continue
      const factor = m[r]![i]! / m[i]![i]!
      for (let c = i; c <= n; c++) m[r]![c] = m[r]![c]! - factor * m[i]![c]!
    }
  }
  return m.map((row, i) => row[n]! / row[i]!)
}
