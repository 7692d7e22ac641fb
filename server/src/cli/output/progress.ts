import cliProgress from 'cli-progress'
import type { CliIo } from '../io.js'
import { formatBytes, formatSeconds } from './units.js'

/** What a progress display counts. */
export type ProgressUnit = 'bytes' | 'rows' | 'files'

/** Options of `createProgress`. */
export interface ProgressOptions {
  /**
   * The task, shown first on every line.
   * @example `label: 'put'`
   */
  label: string
  /**
   * What `advance` counts: bytes are shown as kB/MB, rows and files as numbers.
   * @example `unit: 'bytes'`
   */
  unit: ProgressUnit
  /**
   * How much there is to do, when known; without it no percentage or ETA is shown.
   * @example `total: 1_048_576`
   */
  total?: number
  /**
   * Clock in ms (rate and ETA); tests pass a fake one. Default `performance.now`.
   * @example `now: () => fakeMs`
   */
  now?: () => number
}

/**
 * A progress display for long work: a bar with percentage, count, rate and ETA on a terminal (cli-progress,
 * redrawn in place on standard error), plain lines otherwise (one per tenth of the total, or per step when the
 * total is unknown), so logs and pipes stay readable.
 *
 * @example
 * ```ts
 * const progress = createProgress(io, { label: 'put', unit: 'bytes', total: 1000 })
 * progress.advance(500, '1/2 files')
 * progress.done('uploaded 2 files')
 * ```
 */
export interface Progress {
  /**
   * Counts `amount` more units done; `note` (like `12/100 files`) replaces the previous note.
   * @example `progress.advance(chunk.byteLength)`
   */
  advance(amount: number, note?: string): void
  /**
   * Ends the display and prints `summary` on its own line.
   * @example `progress.done('exported 1200 rows')`
   */
  done(summary: string): void
  /**
   * Ends the display without a summary (interrupted, failed).
   * @example `progress.stop()`
   */
  stop(): void
}

/** Units between two plain lines when the total is unknown. */
const PLAIN_STEP: Record<ProgressUnit, number> = { bytes: 10_000_000, rows: 1_000, files: 10 }

/**
 * Creates the progress display of a task: a bar when standard error is a terminal, plain lines otherwise.
 *
 * @example
 * ```ts
 * const progress = createProgress(io, { label: 'import', unit: 'rows' })
 * ```
 */
export function createProgress(io: CliIo, options: ProgressOptions): Progress {
  const stream = io.stderr as Partial<NodeJS.WriteStream> & CliIo['stderr']
  const terminal = stream.isTTY === true && typeof stream.cursorTo === 'function'
  return terminal ? barProgress(stream as NodeJS.WriteStream, options) : lineProgress(io, options)
}

function amountText(unit: ProgressUnit, amount: number): string {
  return unit === 'bytes' ? formatBytes(amount) : `${amount} ${unit}`
}

function rateText(unit: ProgressUnit, done: number, seconds: number): string {
  if (seconds <= 0) return `? ${unit === 'bytes' ? 'B' : unit}/s`
  const rate = done / seconds
  return unit === 'bytes' ? `${formatBytes(Math.round(rate))}/s` : `${Math.round(rate)} ${unit}/s`
}

function countText(unit: ProgressUnit, done: number, total: number | undefined): string {
  if (total === undefined) return amountText(unit, done)
  return unit === 'bytes' ? `${formatBytes(done)}/${formatBytes(total)}` : `${done}/${total} ${unit}`
}

/** ETA from the average rate so far; '?' until something is done. */
function etaText(done: number, total: number | undefined, seconds: number): string {
  if (total === undefined || done <= 0) return '?'
  return formatSeconds(((total - done) * seconds) / done)
}

function lineProgress(io: CliIo, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now())
  const started = now()
  let done = 0
  let note = ''
  let nextMark = options.total !== undefined ? 10 : PLAIN_STEP[options.unit]
  const line = (): string => {
    const seconds = (now() - started) / 1000
    const { total, unit } = options
    const percent = total !== undefined && total > 0 ? `${Math.floor((done / total) * 100)}% ` : ''
    const eta = total !== undefined ? `, ETA ${etaText(done, total, seconds)}` : ''
    return `${options.label}: ${percent}${countText(unit, done, total)}${note ? ` (${note})` : ''}, ${rateText(unit, done, seconds)}${eta}\n`
  }
  return {
    advance(amount, newNote) {
      done += amount
      if (newNote !== undefined) note = newNote
      if (options.total !== undefined) {
        const percent = options.total > 0 ? (done / options.total) * 100 : 100
        if (percent >= nextMark) {
          io.stderr.write(line())
          nextMark = (Math.floor(percent / 10) + 1) * 10
        }
      } else if (done >= nextMark) {
        io.stderr.write(line())
        nextMark = (Math.floor(done / PLAIN_STEP[options.unit]) + 1) * PLAIN_STEP[options.unit]
      }
    },
    done(summary) {
      io.stderr.write(`${options.label}: ${summary}\n`)
    },
    stop() {},
  }
}

function barProgress(stream: NodeJS.WriteStream, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now())
  const started = now()
  const known = options.total !== undefined
  const format = known
    ? '{label} {bar} {percentage}% | {count}{note} | {rate} | ETA {eta_text}'
    : '{label} {count}{note} | {rate}'
  const bar = new cliProgress.SingleBar({
    stream,
    format,
    barsize: 24,
    hideCursor: true,
    clearOnComplete: false,
    linewrap: false,
    fps: 8,
    barCompleteChar: '\u2588',
    barIncompleteChar: '\u2591',
  })
  let done = 0
  let note = ''
  const payload = () => {
    const seconds = (now() - started) / 1000
    return {
      label: options.label,
      count: countText(options.unit, done, options.total),
      note: note ? ` (${note})` : '',
      rate: rateText(options.unit, done, seconds),
      eta_text: etaText(done, options.total, seconds),
    }
  }
  // A bar of an unknown total still needs a positive total; it is never drawn (the format has no {bar}).
  bar.start(known ? Math.max(options.total!, 1) : 1, 0, payload())
  let stopped = false
  const stop = (): void => {
    if (stopped) return
    stopped = true
    bar.update(known ? Math.min(done, Math.max(options.total!, 1)) : 0, payload())
    bar.stop()
  }
  return {
    advance(amount, newNote) {
      done += amount
      if (newNote !== undefined) note = newNote
      bar.update(known ? Math.min(done, Math.max(options.total!, 1)) : 0, payload())
    },
    done(summary) {
      stop()
      stream.write(`${options.label}: ${summary}\n`)
    },
    stop,
  }
}
