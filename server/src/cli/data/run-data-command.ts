import { setMaxListeners } from 'node:events'
import type { Client } from 'botshelf/client'
import { InterruptedError } from '../failure.js'
import type { CliIo } from '../io.js'
import { clientFor, resolveConnection, type Connection } from './connection.js'

/** What a data command works with: the client of its connection, and the signal Ctrl-C aborts. */
export interface DataRun {
  client: Client
  connection: Connection
  /** Aborted by the first Ctrl-C (SIGINT); pass it to every client call and stream. */
  signal: AbortSignal
  io: CliIo
}

/**
 * Resolves the connection, then runs a data command with an abort signal tied to Ctrl-C: the first SIGINT
 * aborts the work in flight (the command cleans up and exits 130), a second one exits at once.
 *
 * @example
 * ```ts
 * return runDataCommand(values, io, async ({ client }) => { await client.listFiles({}); return 0 })
 * ```
 */
export async function runDataCommand(
  values: { url?: string; token?: string; bot?: string; profile?: string },
  io: CliIo,
  command: (run: DataRun) => Promise<number>,
): Promise<number> {
  const connection = await resolveConnection(values, io)
  const controller = new AbortController()
  // Every call of a long command (100 uploads at once) listens to this one signal.
  setMaxListeners(0, controller.signal)
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(130)
    io.stderr.write('\ninterrupted: stopping the work in flight (Ctrl-C again exits at once)\n')
    controller.abort(new InterruptedError())
  }
  process.on('SIGINT', onSigint)
  try {
    return await command({ client: clientFor(connection), connection, signal: controller.signal, io })
  } catch (error) {
    // Whatever the interrupted call threw (the client's AbortError, a stream's), Ctrl-C is the reason.
    if (controller.signal.aborted) throw new InterruptedError('interrupted: the work in flight was abandoned, nothing half-done was kept')
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/**
 * Throws the signal's reason when Ctrl-C was pressed: long loops call it between steps.
 *
 * @example
 * ```ts
 * for (const file of files) { throwIfInterrupted(signal); await upload(file) }
 * ```
 */
export function throwIfInterrupted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new InterruptedError()
}
