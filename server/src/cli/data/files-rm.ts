import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { exitCodes } from '../exit-codes.js'
import { UsageError } from '../io.js'
import { createProgress } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { listFilesUnder } from './files-list.js'
import { runDataCommand, throwIfInterrupted } from './run-data-command.js'

/**
 * `botshelf files rm <key>... [--recursive]`: deletes files; a prefix ending in `/` deletes every file under it,
 * and only with `--recursive`.
 *
 * @example
 * ```ts
 * await filesRm.run(['old.txt', 'drafts/', '--recursive'], io)
 * ```
 */
export const filesRm: Subcommand = {
  name: 'rm',
  usage: 'botshelf files rm <key or prefix/>... [--recursive]',
  help: `Deletes files by key (or id). An argument ending in / is a prefix: every file under it is deleted, which
needs --recursive so that a stray slash never empties a folder.

Options:
  -r, --recursive     allow prefixes
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesRm, args, io, { ...connectionOptions, recursive: { type: 'boolean', short: 'r' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files rm', positionals, ['<key or prefix/>...'], 1, Infinity)
    const prefixes = positionals.filter((p) => p.endsWith('/'))
    if (prefixes.length > 0 && !values.recursive) {
      throw new UsageError(`${JSON.stringify(prefixes[0])} is a prefix (it ends in /): add --recursive to delete every file under it`)
    }
    return runDataCommand(values, io, async ({ client, signal }) => {
      const keys: string[] = positionals.filter((p) => !p.endsWith('/'))
      for (const prefix of prefixes) keys.push(...(await listFilesUnder(client, prefix === '/' ? '' : prefix, {}, signal)).map((f) => f.key))
      const progress = createProgress(io, { label: 'rm', unit: 'files', total: keys.length })
      let deleted = 0
      for (const key of keys) {
        throwIfInterrupted(signal)
        await client.deleteFile({ id: key }, { signal })
        deleted += 1
        progress.advance(1)
      }
      progress.done(`deleted ${deleted} file${deleted === 1 ? '' : 's'}`)
      return exitCodes.ok
    })
  },
}
