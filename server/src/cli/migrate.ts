import type { PostgresBackend } from '../store/open-backend.js'
import { parseCommandArgs } from './args.js'
import type { CliIo } from './io.js'
import { describeStorage, openStorage, resolveStorage, storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf migrate`.
 *
 * @example
 * ```ts
 * process.stdout.write(migrateHelp)
 * ```
 */
export const migrateHelp = `Usage: botshelf migrate [--database URL] [--data DIR]

Brings the storage's schema up to date and exits: the PostgreSQL database of --database (or
BOTSHELF_DATABASE_URL), or else the data folder's SQLite database (default ./.botshelf).
Safe to run again, and while servers start: they wait for one another. "serve" migrates too;
run this first to prepare a database before starting several servers, or as a deploy step.

Prints the migrations it applied, one per line, on standard output.`

/**
 * Runs `botshelf migrate`: applies pending migrations and reports them. Returns the exit code.
 *
 * @example
 * ```ts
 * await migrateCommand(['--database', 'postgres://postgres@127.0.0.1:5432/botshelf'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function migrateCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { ...storageOptionTable, help: { type: 'boolean', short: 'h' } }, 'migrate')
  if (values.help) {
    io.stdout.write(`${migrateHelp}\n`)
    return 0
  }
  const storage = resolveStorage(values)
  // Opening migrates: on PostgreSQL under an advisory lock, on SQLite under the data folder's lock.
  const backend = await openStorage(storage)
  try {
    const applied = storage.databaseUrl !== undefined ? (backend as PostgresBackend).appliedMigrations : []
    for (const id of applied) io.stdout.write(`${id}\n`)
    io.stderr.write(
      storage.databaseUrl !== undefined
        ? `${describeStorage(storage)}: ${applied.length === 0 ? 'already up to date' : `applied ${applied.length} migrations`}\n`
        : `${describeStorage(storage)}: up to date\n`,
    )
    return 0
  } finally {
    await backend.close()
  }
}
