import type { CliIo } from '../io.js'

/**
 * Raised by a command whose service side is not built yet: exit 1 with a message saying so.
 *
 * @example
 * ```ts
 * throw new NotAvailableError('botshelf usage is not available yet: ...')
 * ```
 */
export class NotAvailableError extends Error {
  override readonly name = 'NotAvailableError'
}

/**
 * `botshelf usage`: storage and request accounting per bot. Not available yet: the service does not keep the
 * accounting it would print, so the command says so (exit 1) instead of printing made-up numbers.
 *
 * @example
 * ```ts
 * await usageCommand([], io) // rejects with NotAvailableError
 * ```
 */
export async function usageCommand(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write('Usage: botshelf usage [--json]\n\nStorage and request usage of a bot. Not available yet: the service does not keep this accounting.\n')
    return 0
  }
  throw new NotAvailableError('botshelf usage is not available yet: the service does not keep usage accounting (files, bytes, rows, requests per bot) in this release')
}
