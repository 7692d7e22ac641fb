import { groupHelp, runGroup, type Subcommand } from '../command-group.js'
import type { CliIo } from '../io.js'
import { webhooksAdd, webhooksDeliveries, webhooksLs, webhooksRetry, webhooksRm } from './webhooks-simple.js'

const webhooksSubcommands: readonly Subcommand[] = [webhooksAdd, webhooksLs, webhooksRm, webhooksDeliveries, webhooksRetry]
const summary = 'Manages the storage event subscriptions of a bot (docs/storage-events.md).'

/**
 * Help text of `botshelf webhooks`.
 *
 * @example
 * ```ts
 * process.stdout.write(webhooksHelp)
 * ```
 */
export const webhooksHelp = groupHelp('webhooks', summary, webhooksSubcommands)

/**
 * Runs `botshelf webhooks <add|ls|rm|deliveries|retry>`. Resolves with the exit code.
 *
 * @example
 * ```ts
 * await webhooksCommand(['ls'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export function webhooksCommand(args: string[], io: CliIo): Promise<number> {
  return runGroup('webhooks', summary, webhooksSubcommands, args, io)
}
