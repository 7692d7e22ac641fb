import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Client, Row, RowFilter } from 'botshelf/client'
import { PRIVATE_FILE_MODE } from '../../platform/index.js'
import { csvRecord, type CsvFormulaOptions } from '../../transfer/index.js'
import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { exitCodes } from '../exit-codes.js'
import { UsageError } from '../io.js'
import { createProgress, type Progress } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { importFormatOf } from './import-source.js'
import { orderedColumns } from './infer-schema.js'
import { readJsonArgument } from './json-input.js'
import { runDataCommand, throwIfInterrupted } from './run-data-command.js'

/** Rows per page read: the service's largest `limit`. */
const PAGE_ROWS = 1000

/**
 * `botshelf tables export <table> <file.csv|.json|.gz|-> [--filter JSON]`: writes every row (or those matching
 * a filter) to a file, read page by page; the file appears only once complete (temporary file, renamed).
 *
 * @example
 * ```ts
 * await tablesExport.run(['peopleTable', 'people.csv'], io)
 * ```
 */
export const tablesExport: Subcommand = {
  name: 'export',
  usage: 'botshelf tables export <table> <file.csv|.json|.gz, or - for standard output> [--format csv|json | --json] [--filter JSON] [--raw-formulas]',
  help: `Writes the rows of a table, ordered by id, as CSV (a header record: id, the columns in order, createdAt,
updatedAt) or as a JSON array, gzip-compressed when the name ends in .gz. The file is written to a temporary
file and renamed when complete: an interrupted export leaves nothing. "-" writes to standard output.

Options:
  --format <f>        csv or json (default: from the file name; csv for -)
  --json              the same as --format json (as "tables find --json")
  --filter <json>     only the rows matching this filter (inline JSON, @file or -)
  --raw-formulas      CSV: write text starting with = + - @, a tab or a carriage return as it is (by default it
                      gets a leading ' so that a spreadsheet shows it instead of running it)
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesExport, args, io, { ...connectionOptions, format: { type: 'string' }, json: { type: 'boolean' }, filter: { type: 'string' }, 'raw-formulas': { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    if (values.json === true) {
      if (values.format !== undefined && values.format !== 'json') throw new UsageError(`--json and --format ${values.format} disagree; give one of them`)
      values.format = 'json'
    }
    expectPositionals('tables export', positionals, ['<table>', '<file or ->'])
    const [tableName, destination] = positionals as [string, string]
    const toStdout = destination === '-'
    const { format, gzip } = toStdout ? { format: (values.format ?? 'csv') as 'csv' | 'json', gzip: false } : importFormatOf(destination, values.format)
    if (format !== 'csv' && format !== 'json') throw new UsageError(`--format must be csv or json, received ${JSON.stringify(format)}`)
    const filter = values.filter !== undefined ? await readJsonArgument('--filter', values.filter, io) : undefined
    if (filter !== undefined && (typeof filter !== 'object' || filter === null || Array.isArray(filter))) throw new UsageError('--filter: expected a JSON object')

    return runDataCommand(values, io, async ({ client, signal }) => {
      const { table, rows: total } = await client.getTable({ table: tableName }, { signal })
      const columns = ['id', ...orderedColumns(table), 'createdAt', 'updatedAt']
      const progress = createProgress(io, { label: 'export', unit: 'rows', ...(filter === undefined ? { total } : {}) })
      const formulas = { rawFormulas: values['raw-formulas'] === true }
      const lines = exportLines(client, table.name, filter as RowFilter | undefined, format, columns, formulas, signal, progress)
      let count = 0
      const counted = (async function* () {
        for await (const line of lines) {
          count += line.rows
          yield line.text
        }
      })()
      if (toStdout) {
        for await (const text of counted) io.stdout.write(text)
        progress.done(`exported ${count} rows`)
        return exitCodes.ok
      }
      const temporary = join(dirname(destination), `.${basename(destination)}.${randomBytes(6).toString('hex')}.part`)
      try {
        const source = Readable.from(counted)
        if (gzip) await pipeline(source, createGzip(), createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE_MODE }), { signal })
        else await pipeline(source, createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE_MODE }), { signal })
        await rename(temporary, destination)
      } catch (error) {
        progress.stop()
        await rm(temporary, { force: true })
        throw error
      }
      progress.done(`exported ${count} rows to ${destination}`)
      return exitCodes.ok
    })
  },
}

/** The export's text, one page of rows at a time (each piece with how many rows it holds). */
async function* exportLines(
  client: Client,
  table: string,
  filter: RowFilter | undefined,
  format: 'csv' | 'json',
  columns: readonly string[],
  formulas: CsvFormulaOptions,
  signal: AbortSignal,
  progress: Progress,
): AsyncGenerator<{ text: string; rows: number }> {
  if (format === 'csv') yield { text: `${csvRecord(columns, formulas)}\r\n`, rows: 0 }
  else yield { text: '[', rows: 0 }
  let offset = 0
  let first = true
  for (;;) {
    throwIfInterrupted(signal)
    const page = await client.findTableRows({ table, limit: PAGE_ROWS, offset, orderBy: 'id', ...(filter ? { filter } : {}) }, { signal })
    const rows = page.rows as Row[]
    if (rows.length > 0) {
      const text =
        format === 'csv'
          ? rows.map((row) => `${csvRecord(columns.map((c) => row[c]), formulas)}\r\n`).join('')
          : rows.map((row, i) => `${first && i === 0 ? '\n' : ',\n'}${JSON.stringify(row)}`).join('')
      first = false
      yield { text, rows: rows.length }
      progress.advance(rows.length)
    }
    offset += rows.length
    if (!page.hasMore || rows.length === 0) break
  }
  if (format === 'json') yield { text: first ? ']\n' : '\n]\n', rows: 0 }
}
