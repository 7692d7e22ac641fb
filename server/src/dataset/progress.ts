/**
 * How export and import report what they do: a phase starts with its total (records or bytes), advances, and
 * ends. The CLI draws bars or plain lines from it; tests can record it.
 *
 * @example
 * ```ts
 * const quiet: TransferProgress = { start: () => ({ advance() {}, done() {} }) }
 * ```
 */
export interface TransferProgress {
  start(phase: TransferPhase, total: number): { advance(amount: number): void; done(summary: string): void }
}

/** The phases: `metadata` (records and rows), `content` (blob bytes), `verify` (checking the archive's parts). */
export type TransferPhase = 'metadata' | 'content' | 'verify'

/** Reports nothing. */
export const quietProgress: TransferProgress = { start: () => ({ advance() {}, done() {} }) }

/**
 * Throws the signal's reason when it was aborted (Ctrl-C): called between batches, so work stops at a clean point.
 *
 * @example
 * ```ts
 * throwIfAborted(signal)
 * ```
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('interrupted')
}
