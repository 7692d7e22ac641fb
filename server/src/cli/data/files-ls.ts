import type { Subcommand } from '../command-group.js'
import { parseSubcommand } from '../command-group.js'
import { renderTable } from '../output/index.js'
import { formatBytes } from '../output/units.js'
import { connectionOptions } from './connection.js'
import { listFilesUnder } from './files-list.js'
import { parseTagOptions } from './json-input.js'
import { runDataCommand } from './run-data-command.js'
import { connectionHelp } from './connection-help.js'

/**
 * `botshelf files ls [--prefix P] [--tag k=v]... [--json]`: lists the bot's files, sorted by key.
 *
 * @example
 * ```ts
 * await filesLs.run(['--prefix', 'docs/', '--json'], io)
 * ```
 */
export const filesLs: Subcommand = {
  name: 'ls',
  usage: 'botshelf files ls [--prefix P] [--tag KEY=VALUE]... [--json]',
  help: `Lists the files of the bot, sorted by key: key, size, status, content type, last update, tags.

Options:
  --prefix <p>        only keys starting with p
  --tag <key=value>   only files with this tag (repeatable: all must match)
  --json              print a JSON array of the files (the API's File objects)
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesLs, args, io, {
      ...connectionOptions,
      prefix: { type: 'string' },
      tag: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values } = parsed
    const tags = parseTagOptions(values.tag)
    return runDataCommand(values, io, async ({ client, signal }) => {
      const files = await listFilesUnder(client, values.prefix, tags, signal)
      if (values.json) {
        io.stdout.write(`${JSON.stringify(files, null, 2)}\n`)
        return 0
      }
      const rows = files.map((f) => [f.key, f.size === null ? '-' : formatBytes(f.size), f.status, f.contentType, f.updatedAt, Object.entries(f.tags).map(([k, v]) => `${k}=${v}`).join(' ')])
      io.stdout.write(renderTable(io.stdout, ['key', 'size', 'status', 'type', 'updated', 'tags'], rows))
      return 0
    })
  },
}
