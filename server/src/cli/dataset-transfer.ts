import { setMaxListeners } from 'node:events'
import type { TransferPhase, TransferProgress } from '../dataset/index.js'
import { InterruptedError } from './failure.js'
import type { CliIo } from './io.js'
import { createProgress } from './output/index.js'

/**
 * Progress of `botshelf export` / `botshelf import` on standard error: a bar per phase on a terminal, plain lines
 * otherwise (decision 1002).
 *
 * @example
 * ```ts
 * await exportDataset(backend, out, { progress: cliTransferProgress(io, 'export') })
 * ```
 */
export function cliTransferProgress(io: CliIo, command: 'export' | 'import' | 'backup' | 'restore'): TransferProgress & { stop(): void } {
  let current: ReturnType<typeof createProgress> | undefined
  const labels: Record<TransferPhase, string> = { verify: 'verify archive', metadata: 'metadata', content: 'content' }
  return {
    start(phase, total) {
      current?.stop()
      const bar = createProgress(io, { label: `${command} ${labels[phase]}`, unit: phase === 'metadata' ? 'rows' : 'bytes', total })
      current = bar
      return { advance: (amount) => bar.advance(amount), done: (summary) => bar.done(summary) }
    },
    stop() {
      current?.stop()
    },
  }
}

/**
 * Runs `work` with an abort signal tied to Ctrl-C: the first SIGINT stops the work at its next clean point (the
 * command then undoes what it did and exits 130), a second one exits at once.
 *
 * @example
 * ```ts
 * await withInterrupt(io, (signal) => importDataset(backend, from, { signal }))
 * ```
 */
export async function withInterrupt<T>(io: CliIo, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130)
    io.stderr.write('\ninterrupted: undoing what was written (Ctrl-C again exits at once)\n')
    controller.abort(new InterruptedError('interrupted: nothing was kept'))
  }
  process.on('SIGINT', onSigint)
  try {
    return await work(controller.signal)
  } catch (error) {
    if (controller.signal.aborted) throw new InterruptedError('interrupted: nothing was kept')
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}
