import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { UsageError } from '../io.js'
import { renderTable } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { orderedColumns } from './infer-schema.js'
import { readJsonArgument } from './json-input.js'
import { runDataCommand } from './run-data-command.js'

/**
 * `botshelf tables ls [--json]`: the bot's tables with their column count and creation date.
 *
 * @example
 * ```ts
 * await tablesLs.run(['--json'], io)
 * ```
 */
export const tablesLs: Subcommand = {
  name: 'ls',
  usage: 'botshelf tables ls [--json]',
  help: `Lists the tables of the bot: name, columns, creation date.

Options:
  --json              print the tables as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesLs, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables ls', positionals, [])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const tables = await client.list.tables({}, { signal }).collect()
      if (values.json) io.stdout.write(`${JSON.stringify(tables, null, 2)}\n`)
      else io.stdout.write(renderTable(io.stdout, ['name', 'columns', 'created'], tables.map((t) => [t.name, orderedColumns(t).join(', '), t.createdAt])))
      return 0
    })
  },
}

/**
 * `botshelf tables create <table> --schema JSON`: creates a table (the name must end in `Table`).
 *
 * @example
 * ```ts
 * await tablesCreate.run(['peopleTable', '--schema', '{"name":{"type":"string"}}'], io)
 * ```
 */
export const tablesCreate: Subcommand = {
  name: 'create',
  usage: 'botshelf tables create <table> --schema JSON [--key-column C] [--json]',
  help: `Creates a table. Its name ends in Table (like peopleTable). The schema is JSON, inline, @file or -:
either the columns ({"name": {"type": "string"}, "age": {"type": "number"}}) or a full JSON Schema
({"type": "object", "properties": {...}}). Column types: string, number, boolean, object, array.

Options:
  --schema <json>     the columns (required)
  --key-column <c>    a column whose values are unique (for upserts)
  --json              print the created table as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesCreate, args, io, {
      ...connectionOptions,
      schema: { type: 'string' },
      'key-column': { type: 'string' },
      json: { type: 'boolean' },
    })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables create', positionals, ['<table>'])
    if (values.schema === undefined) throw new UsageError('--schema is required, like --schema \'{"name":{"type":"string"}}\'')
    const given = await readJsonArgument('--schema', values.schema, io)
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new UsageError('--schema: expected a JSON object of columns')
    const schema = 'properties' in given ? given : { type: 'object', properties: given }
    return runDataCommand(values, io, async ({ client, signal }) => {
      const { table } = await client.createTable(
        { name: positionals[0]!, schema: schema as never, ...(values['key-column'] !== undefined ? { keyColumn: values['key-column'] } : {}) },
        { signal },
      )
      if (values.json) io.stdout.write(`${JSON.stringify(table, null, 2)}\n`)
      io.stderr.write(`created table ${table.name} (${orderedColumns(table).join(', ')})\n`)
      return 0
    })
  },
}

/**
 * `botshelf tables describe <table> [--json]`: a table's columns, types and settings (computed columns with their
 * action, dependencies and state), its row count and the rows waiting to be computed or embedded.
 *
 * @example
 * ```ts
 * await tablesDescribe.run(['peopleTable'], io)
 * ```
 */
export const tablesDescribe: Subcommand = {
  name: 'describe',
  usage: 'botshelf tables describe <table> [--json]',
  help: `Shows a table: its columns in order with their type and settings (a computed column shows its action,
what it reads and whether it runs), its number of rows and how many wait to be computed or indexed.

Options:
  --json              print the table and its counts as JSON (getTable's answer)
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesDescribe, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables describe', positionals, ['<table>'])
    return runDataCommand(values, io, async ({ client, signal }) => {
      const answer = await client.getTable({ table: positionals[0]! }, { signal })
      if (values.json) {
        io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`)
        return 0
      }
      const { table } = answer
      const rows = orderedColumns(table).map((name) => {
        const column = table.schema.properties[name]!
        const computed = column['x-zui'].computed
        const computedFlag = computed
          ? `computed: ${computed.action}${computed.dependencies?.length ? ` from ${computed.dependencies.join(', ')}` : ''}${computed.enabled === false || !table.isComputeEnabled ? ' (off)' : ''}`
          : ''
        const flags = [column['x-zui'].searchable ? 'searchable' : '', column.nullable === false ? 'required' : '', table.keyColumn === name ? 'key' : '', computedFlag].filter(Boolean).join(' ')
        return [name, column.format ? `${column.type} (${column.format})` : column.type, flags]
      })
      const compute = orderedColumns(table).some((name) => table.schema.properties[name]!['x-zui'].computed) ? `, compute ${table.isComputeEnabled ? 'on' : 'off'}` : ''
      io.stdout.write(`${table.name}: ${answer.rows} rows, ${answer.stale} waiting to be computed or indexed${compute}\n`)
      io.stdout.write(renderTable(io.stdout, ['column', 'type', 'settings'], rows))
      return 0
    })
  },
}

/**
 * `botshelf tables insert <table> <JSON row or array>`: inserts rows given as JSON (inline, @file or -).
 *
 * @example
 * ```ts
 * await tablesInsert.run(['peopleTable', '[{"name":"Ada"}]'], io)
 * ```
 */
export const tablesInsert: Subcommand = {
  name: 'insert',
  usage: 'botshelf tables insert <table> <JSON row or array of rows, @file or -> [--json]',
  help: `Inserts rows, all or nothing (at most 1000; use "tables import" for files of any size).

Options:
  --json              print the inserted rows (with their ids) as JSON
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesInsert, args, io, { ...connectionOptions, json: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables insert', positionals, ['<table>', '<rows>'])
    const given = await readJsonArgument('rows', positionals[1]!, io)
    const rows = Array.isArray(given) ? given : [given]
    if (rows.length === 0 || rows.some((row) => typeof row !== 'object' || row === null || Array.isArray(row))) {
      throw new UsageError('rows: expected a JSON object or a non-empty array of objects, like [{"name":"Ada"}]')
    }
    return runDataCommand(values, io, async ({ client, signal }) => {
      const answer = await client.createTableRows({ table: positionals[0]!, rows: rows as Array<Record<string, unknown>> }, { signal })
      for (const warning of answer.warnings ?? []) io.stderr.write(`warning: ${warning}\n`)
      if (values.json) io.stdout.write(`${JSON.stringify(answer.rows, null, 2)}\n`)
      io.stderr.write(`inserted ${answer.rows.length} row${answer.rows.length === 1 ? '' : 's'} (ids ${answer.rows.map((r) => r.id).join(', ')})\n`)
      return 0
    })
  },
}

/**
 * `botshelf tables rm <table> --yes`: deletes a table and all its rows.
 *
 * @example
 * ```ts
 * await tablesRm.run(['oldTable', '--yes'], io)
 * ```
 */
export const tablesRm: Subcommand = {
  name: 'rm',
  usage: 'botshelf tables rm <table> --yes',
  help: `Deletes a table and every row in it. There is no undo, so --yes is required.

Options:
  --yes               confirm the deletion
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesRm, args, io, { ...connectionOptions, yes: { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables rm', positionals, ['<table>'])
    if (!values.yes) throw new UsageError(`tables rm deletes ${positionals[0]} and all its rows: add --yes to confirm`)
    return runDataCommand(values, io, async ({ client, signal }) => {
      await client.deleteTable({ table: positionals[0]! }, { signal })
      io.stderr.write(`deleted table ${positionals[0]}\n`)
      return 0
    })
  },
}
