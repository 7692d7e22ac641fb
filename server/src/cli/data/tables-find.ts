import type { RowFilter } from 'botshelf/client'
import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { UsageError } from '../io.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { orderedColumns } from './infer-schema.js'
import { parseIntegerOption, readJsonArgument } from './json-input.js'
import { formatRows, rowFormatOf } from './row-output.js'
import { runDataCommand } from './run-data-command.js'

/**
 * `botshelf tables find <table> [--filter JSON] [--search T] [--order-by C] [--desc] [--limit N] [--offset N]
 * [--select a,b] [--json|--csv]`: one page of rows matching a filter (the Tables API's filter language).
 *
 * @example
 * ```ts
 * await tablesFind.run(['ordersTable', '--filter', '{"total":{"$gt":100}}', '--json'], io)
 * ```
 */
export const tablesFind: Subcommand = {
  name: 'find',
  usage: 'botshelf tables find <table> [--filter JSON] [--search TEXT] [--order-by COLUMN] [--desc] [--limit N] [--offset N] [--select A,B] [--json|--csv]',
  help: `Finds rows with the Tables API's filter language ({"total": {"$gt": 100}}, {"$or": [...]}, ...).
Prints a table (a JSON array with --json, CSV with --csv). Says on standard error when more rows match.

Options:
  --filter <json>     the filter: inline JSON, @file.json, or - for standard input
  --search <text>     full-text search in the searchable columns
  --order-by <col>    sort by this column (default id)
  --desc              sort descending
  --limit <n>         at most n rows (1 to 1000, default 100)
  --offset <n>        skip n rows
  --select <a,b>      only these columns
  --format <f>        table, json or csv (or --json, --csv)
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesFind, args, io, {
      ...connectionOptions,
      filter: { type: 'string' },
      search: { type: 'string' },
      'order-by': { type: 'string' },
      desc: { type: 'boolean' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      select: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables find', positionals, ['<table>'])
    const format = rowFormatOf(values)
    const filter = values.filter !== undefined ? await readJsonArgument('--filter', values.filter, io) : undefined
    if (filter !== undefined && (typeof filter !== 'object' || filter === null || Array.isArray(filter))) {
      throw new UsageError(`--filter: expected a JSON object like {"total":{"$gt":100}}, received ${JSON.stringify(filter)}`)
    }
    const limit = parseIntegerOption('--limit', values.limit, 1, 1000) ?? 100
    const offset = parseIntegerOption('--offset', values.offset, 0, Number.MAX_SAFE_INTEGER)
    const select = values.select?.split(',').map((c) => c.trim()).filter(Boolean)
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { table } = await client.getTable({ table: positionals[0]! }, { signal })
      const result = await client.findTableRows(
        {
          table: table.name,
          limit,
          ...(filter !== undefined ? { filter: filter as RowFilter } : {}),
          ...(values.search !== undefined ? { search: values.search } : {}),
          ...(values['order-by'] !== undefined ? { orderBy: values['order-by'] } : {}),
          ...(values.desc ? { orderDirection: 'desc' as const } : {}),
          ...(offset !== undefined ? { offset } : {}),
          ...(select !== undefined ? { select } : {}),
        },
        { signal },
      )
      io.stdout.write(formatRows(io.stdout, result.rows, orderedColumns(table), format))
      for (const warning of result.warnings ?? []) io.stderr.write(`warning: ${warning}\n`)
      if (result.hasMore) io.stderr.write(`more rows match: continue with --offset ${result.offset + result.rows.length}\n`)
      return 0
    })
  },
}
