import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { runDataCommand } from './run-data-command.js'
import { escapeControls } from '../output/index.js'

/**
 * `botshelf files cp <key> <new key> [--to-bot ID] [--overwrite]`: copies a file on the service (no bytes go
 * through the terminal), in the same bot or into another one.
 *
 * @example
 * ```ts
 * await filesCp.run(['a.txt', 'backup/a.txt'], io)
 * ```
 */
export const filesCp: Subcommand = {
  name: 'cp',
  usage: 'botshelf files cp <key> <new key> [--to-bot BOT_ID] [--overwrite] [--json]',
  help: `Copies a file to a new key on the service, in the same bot or, with --to-bot, in another bot the token
may write to. An existing destination is an error unless --overwrite.

Options:
  --to-bot <id>       the destination bot (default: the same bot)
  --overwrite         replace an existing destination
  --json              print the new file as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesCp, args, io, {
      ...connectionOptions,
      'to-bot': { type: 'string' },
      overwrite: { type: 'boolean' },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files cp', positionals, ['<key>', '<new key>'])
    const [from, to] = positionals as [string, string]
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { file } = await client.copyFile(
        {
          idOrKey: from,
          destinationKey: to,
          ...(values.overwrite ? { overwrite: true } : {}),
          ...(values['to-bot'] !== undefined ? { 'x-destination-bot-id': values['to-bot'] } : {}),
        },
        { signal },
      )
      if (values.json) io.stdout.write(`${JSON.stringify(file, null, 2)}\n`)
      io.stderr.write(`copied ${escapeControls(from)} to ${escapeControls(file.key)}${values['to-bot'] !== undefined ? ` in bot ${values['to-bot']}` : ''}\n`)
      return 0
    })
  },
}
