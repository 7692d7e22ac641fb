import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { UsageError } from '../io.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { parseTagOptions } from './json-input.js'
import { runDataCommand } from './run-data-command.js'

/**
 * `botshelf files tag <key> [KEY=VALUE]... [--remove KEY]...`: sets and removes tags of a file; without
 * changes, prints its tags.
 *
 * @example
 * ```ts
 * await filesTag.run(['report.pdf', 'reviewed=yes', '--remove', 'draft'], io)
 * ```
 */
export const filesTag: Subcommand = {
  name: 'tag',
  usage: 'botshelf files tag <key> [KEY=VALUE]... [--remove KEY]... [--json]',
  help: `Sets tags (KEY=VALUE, merged into the existing ones) and removes tags (--remove KEY) of a file, then prints
its tags. With neither, only prints them.

Options:
  --remove <key>      remove this tag (repeatable)
  --json              print the tags as a JSON object
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesTag, args, io, { ...connectionOptions, remove: { type: 'string', multiple: true }, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files tag', positionals, ['<key>', '[KEY=VALUE]...'], 1, Infinity)
    const [key, ...pairs] = positionals as [string, ...string[]]
    const set = parseTagOptions(pairs, 'a tag')
    const patch: Record<string, string | null> = { ...set }
    for (const removed of values.remove ?? []) {
      if (removed in set) throw new UsageError(`tag ${JSON.stringify(removed)} is both set and removed`)
      patch[removed] = null
    }
    return runDataCommand(values, io, async ({ client, signal }) => {
      const file = Object.keys(patch).length > 0
        ? (await client.updateFileMetadata({ id: key, tags: patch }, { signal })).file
        : (await client.getFile({ id: key }, { signal })).file
      if (values.json) io.stdout.write(`${JSON.stringify(file.tags, null, 2)}\n`)
      else io.stdout.write(Object.entries(file.tags).map(([k, v]) => `${k}=${v}\n`).join(''))
      return 0
    })
  },
}
