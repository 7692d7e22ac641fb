import { tableNamePattern } from 'botshelf/api'
import { ApiError, type Client, type Table } from 'botshelf/client'
import { UsageError } from '../io.js'
import type { Subcommand } from '../command-group.js'
import { expectPositionals, parseSubcommand } from '../command-group.js'
import { describeFailure } from '../failure.js'
import { exitCodes } from '../exit-codes.js'
import { createProgress } from '../output/index.js'
import { connectionHelp } from './connection-help.js'
import { connectionOptions } from './connection.js'
import { fileSize, importFormatOf, readImportRows } from './import-source.js'
import { columnTypes, inferSchema, rowForTable } from './infer-schema.js'
import { throwIfInterrupted, runDataCommand } from './run-data-command.js'

/** Rows per insert: the service's limit per write. */
const BATCH_ROWS = 1000
/** Bytes of JSON per insert, well under the Tables API's 40 MB body limit. */
const BATCH_BYTES = 8 * 1024 * 1024
/** Rows read before inferring the schema of a table the import creates. */
const SAMPLE_ROWS = 1000

/**
 * `botshelf tables import <table> <file.csv|.json|.gz>`: inserts a file's rows, creating the table (schema
 * inferred from the values) when it does not exist. All or nothing: on a failure or Ctrl-C the rows already
 * inserted are deleted again, and a table the import created is removed, unless `--keep-partial`.
 *
 * @example
 * ```ts
 * await tablesImport.run(['peopleTable', 'people.csv'], io)
 * ```
 */
export const tablesImport: Subcommand = {
  name: 'import',
  usage: 'botshelf tables import <table> <file.csv|.json|.gz> [--format csv|json] [--keep-partial]',
  help: `<table> is a table name: 1 to 45 letters, digits or _, then "Table" (ordersTable), as the service requires;
it is checked before the file is read.
Inserts the rows of a CSV file (a header record, then one record per row) or a JSON file (an array of
row objects, or { "rows": [...] }), gzip-compressed when the name ends in .gz. The columns id, createdAt and
updatedAt are skipped (the service sets them). A missing table is created, its schema inferred from the first
${SAMPLE_ROWS} rows: number, boolean (true/false), object or array when every value is one, string otherwise.
CSV values are converted to the types of the table's columns; one that does not fit stops the import.
Rows are inserted ${BATCH_ROWS} at a time, with progress in bytes read and rows inserted.
On a failure or Ctrl-C, the rows inserted so far are deleted again and a table the import created is
removed, so nothing half-imported stays (--keep-partial keeps them).

Options:
  --format <f>        csv or json (default: from the file name)
  --keep-partial      keep what was inserted when the import stops early
${connectionHelp}`,
  async run(args, io) {
    const parsed = parseSubcommand('tables', tablesImport, args, io, { ...connectionOptions, format: { type: 'string' }, 'keep-partial': { type: 'boolean' } })
    if (!parsed) return 0
    const { values, positionals } = parsed
    expectPositionals('tables import', positionals, ['<table>', '<file>'])
    const [tableName, path] = positionals as [string, string]
    // Checked before reading anything: a refusal after 100% of a large file is time lost.
    if (!tableNamePattern.test(tableName)) {
      throw new UsageError(`<table>: expected 1 to 45 letters, digits or _ followed by "Table" (like ordersTable), received ${JSON.stringify(tableName)}`)
    }
    const { format, gzip } = importFormatOf(path, values.format)
    const size = await fileSize(path)
    const fromCsv = format === 'csv'

    return runDataCommand(values, io, async ({ client, signal }) => {
      let table = await findTable(client, tableName, signal)
      let types: Record<string, string> | undefined
      let created = false
      const progress = createProgress(io, { label: 'import', unit: 'bytes', total: size })
      const inserted: number[] = []
      let rowNumber = 0
      let batch: Array<Record<string, unknown>> = []
      let batchBytes = 0
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return
        throwIfInterrupted(signal)
        const answer = await client.createTableRows({ table: table!.name, rows: batch }, { signal })
        if (answer.errors && answer.errors.length > 0) throw new Error(`the service refused rows: ${answer.errors.join('; ')}`)
        for (const row of answer.rows) inserted.push(row.id)
        batch = []
        batchBytes = 0
        progress.advance(0, `${inserted.length} rows`)
      }
      const sample: Array<Record<string, unknown>> = []
      const add = async (row: Record<string, unknown>): Promise<void> => {
        rowNumber += 1
        types ??= columnTypes(table!)
        const values = rowForTable(row, types, fromCsv, rowNumber)
        batch.push(values)
        batchBytes += JSON.stringify(values).length
        if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush()
      }
      const createFromSample = async (): Promise<void> => {
        const notes: string[] = []
        const schema = inferSchema(sample, fromCsv, notes)
        table = (await client.createTable({ name: tableName, schema: { type: 'object', properties: schema } }, { signal })).table
        created = true
        io.stderr.write(`import: created table ${table.name} (${Object.entries(schema).map(([c, s]) => `${c}: ${s.type}`).join(', ') || 'no columns'})\n`)
        for (const note of notes) io.stderr.write(`import: ${note}\n`)
        for (const row of sample.splice(0)) await add(row)
      }
      try {
        for await (const rows of readImportRows(path, format, gzip, signal, (n) => progress.advance(n))) {
          for (const row of rows) {
            if (table) await add(row)
            else {
              sample.push(row)
              if (sample.length >= SAMPLE_ROWS) await createFromSample()
            }
          }
        }
        if (!table) await createFromSample()
        await flush()
      } catch (error) {
        progress.stop()
        const keep = values['keep-partial'] === true
        const undone = keep ? 'kept (--keep-partial)' : await undo(client, table, created, inserted)
        const { code, message } = describeFailure(error)
        io.stderr.write(`botshelf: import stopped after ${inserted.length} rows: ${message}; ${undone}\n`)
        return code
      }
      progress.done(`inserted ${inserted.length} rows into ${table!.name}`)
      return exitCodes.ok
    })
  },
}

async function findTable(client: Client, name: string, signal: AbortSignal): Promise<Table | undefined> {
  try {
    return (await client.getTable({ table: name }, { signal })).table
  } catch (error) {
    if (error instanceof ApiError && error.code === 404) return undefined
    throw error
  }
}

/** Takes back what an import did, without the interrupted signal (that is the point). */
async function undo(client: Client, table: Table | undefined, created: boolean, inserted: number[]): Promise<string> {
  if (!table) return 'nothing was written'
  try {
    if (created) {
      await client.deleteTable({ table: table.name })
      return `the table ${table.name} it had created was deleted`
    }
    for (let at = 0; at < inserted.length; at += BATCH_ROWS) await client.deleteTableRows({ table: table.name, ids: inserted.slice(at, at + BATCH_ROWS) })
    return inserted.length > 0 ? `the ${inserted.length} rows it had inserted were deleted` : 'nothing was written'
  } catch (error) {
    return `taking back the ${inserted.length} inserted rows failed too (${describeFailure(error).message})`
  }
}
