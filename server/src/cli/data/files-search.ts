import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { renderTable } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { parseIntegerOption, parseTagOptions } from './json-input.js'
import { runDataCommand } from './run-data-command.js'
import { emptySearchMessage } from 'botshelf/client'

/**
 * `botshelf files search <query> [--tag k=v]... [--limit N] [--json]`: semantic search over indexed files,
 * through the client's `searchFiles`, over the files uploaded with `--index`.
 *
 * @example
 * ```ts
 * await filesSearch.run(['refund policy', '--limit', '5'], io)
 * ```
 */
export const filesSearch: Subcommand = {
  name: 'search',
  usage: 'botshelf files search <query> [--tag KEY=VALUE]... [--limit N] [--json]',
  help: `Searches the indexed files for passages matching the query (searchFiles): score (relevance, 0 to 1), file
key, passage. Prints "no indexed files" when the bot has no file to index (upload with --index), and "no relevant
passage" when no passage scored above the server's relevance floor.

Options:
  --tag <key=value>   only files with this tag (repeatable)
  --limit <n>         at most n passages (1 to 50)
  --json              print the passages as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesSearch, args, io, {
      ...connectionOptions,
      tag: { type: 'string', multiple: true },
      limit: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files search', positionals, ['<query>'])
    const tags = parseTagOptions(values.tag)
    const limit = parseIntegerOption('--limit', values.limit, 1, 50)
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { passages } = await client.searchFiles(
        { query: positionals[0]!, ...(Object.keys(tags).length > 0 ? { tags } : {}), ...(limit !== undefined ? { limit } : {}) },
        { signal },
      )
      if (values.json) {
        io.stdout.write(`${JSON.stringify(passages, null, 2)}\n`)
        return 0
      }
      if (passages.length === 0) {
        // An empty table says nothing: say whether there is nothing indexed or nothing relevant.
        io.stdout.write(`${await emptySearchMessage(client, { signal })}\n`)
        return 0
      }
      const rows = passages.map((p) => [p.score.toFixed(3), p.file.key, p.content.length > 100 ? `${p.content.slice(0, 97)}...` : p.content])
      io.stdout.write(renderTable(io.stdout, ['score', 'file', 'passage'], rows))
      return 0
    })
  },
}

/**
 * `botshelf files passages <key> [--json]`: the passages of an indexed file, through the client's
 * `listFilePassages`; only files uploaded with `--index` have passages.
 *
 * @example
 * ```ts
 * await filesPassages.run(['guide.pdf', '--json'], io)
 * ```
 */
export const filesPassages: Subcommand = {
  name: 'passages',
  usage: 'botshelf files passages <key> [--json]',
  help: `Lists the passages of an indexed file (listFilePassages), in order.
Only files uploaded with --index (index: true) have passages.

Options:
  --json              print the passages as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('files', filesPassages, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('files passages', positionals, ['<key>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const passages = await client.list.filePassages({ id: positionals[0]! }, { signal }).collect()
      if (values.json) io.stdout.write(`${JSON.stringify(passages, null, 2)}\n`)
      else io.stdout.write(passages.map((p) => `${p.content}\n`).join('\n'))
      return 0
    })
  },
}
