/**
 * One way for every bench to report a ratio to `npm run bench`: a line `RATIO {json}` on stdout, which the runner
 * collects into one table. The bench keeps printing its own Markdown for `bench/README.md` beside it.
 *
 * @example
 * printRatio({ bench: 'events', row: 'valid events validated', botshelf: 1_200_000, baseline: 5_000_000,
 *   unit: 'events/s', goal: 0.2 })
 * // RATIO {"bench":"events","row":"valid events validated",...,"ratio":0.24}
 */
export interface RatioRow {
  /** The bench file's short name, e.g. `events`. */
  bench: string
  /** What was measured, as the table row names it. */
  row: string
  /** botshelf's figure (higher is better unless `lowerIsBetter`). */
  botshelf: number
  /** The baseline's figure measured in the same run. */
  baseline: number
  /** Unit of both figures, e.g. `req/s`, `ms`. */
  unit: string
  /** The goal for the ratio (botshelf / baseline, or baseline / botshelf when lower is better). */
  goal?: number
  /** Set for latencies and other figures where less is better: the ratio is then baseline / botshelf. */
  lowerIsBetter?: boolean
}

/** The marker the runner looks for at the start of a stdout line. */
export const RATIO_MARKER = 'RATIO '

/**
 * The ratio of a row: botshelf / baseline, inverted when lower is better.
 *
 * @example
 * ratioOf({ bench: 'x', row: 'p99', botshelf: 20, baseline: 10, unit: 'ms', lowerIsBetter: true }) // 0.5
 */
export function ratioOf(row: RatioRow): number {
  if (row.baseline === 0 || row.botshelf === 0) return Number.NaN
  return row.lowerIsBetter ? row.baseline / row.botshelf : row.botshelf / row.baseline
}

/**
 * Prints one `RATIO` line for the runner.
 *
 * @example
 * printRatio({ bench: 'files', row: 'upload 1 MB', botshelf: 180, baseline: 219, unit: 'MB/s', goal: 0.8 })
 */
export function printRatio(row: RatioRow): void {
  const ratio = Math.round(ratioOf(row) * 1000) / 1000
  process.stdout.write(`${RATIO_MARKER}${JSON.stringify({ ...row, ratio })}\n`)
}
