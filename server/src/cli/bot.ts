import { parseCommandArgs } from './args.js'
import { UsageError, type CliIo } from './io.js'
import { openAuthStore } from './open-store.js'
import { storageOptionTable } from './storage-options.js'

/**
 * Help text of `botshelf bot`.
 *
 * @example
 * ```ts
 * process.stdout.write(botHelp)
 * ```
 */
export const botHelp = `Usage:
  botshelf bot create [--data DIR | --database URL] [--name NAME]
  botshelf bot list   [--data DIR | --database URL] [--json]

Manages the bots of a data folder (default ./.botshelf), or of a PostgreSQL database
(--database URL, or BOTSHELF_DATABASE_URL). Works while the server runs.

  create  adds a bot and prints its id on standard output (then give it a token:
          botshelf token create --bot <id> --role bot). Useful for copyFile with x-destination-bot-id.
  list    prints id, name and creation date of every bot.`

/**
 * Runs `botshelf bot <create|list>`. Returns the exit code.
 *
 * @example
 * ```ts
 * await botCommand(['create', '--name', 'support'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function botCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(`${botHelp}\n`)
    return sub === undefined ? 2 : 0
  }
  if (sub !== 'create' && sub !== 'list') {
    throw new UsageError(`Unknown bot command "${sub}"; expected create or list.\nRun "botshelf bot --help" for usage.`)
  }
  const { values } = parseCommandArgs(
    rest,
    { ...storageOptionTable, name: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    `bot ${sub}`,
  )
  if (values.help) {
    io.stdout.write(`${botHelp}\n`)
    return 0
  }
  if (sub === 'list' && values.name !== undefined) throw new UsageError('--name only goes with "bot create"')
  if (sub === 'create' && values.json) throw new UsageError('--json only goes with "bot list"')
  if (values.name !== undefined && (values.name.trim() === '' || values.name.length > 100)) {
    throw new UsageError(`--name must be 1 to 100 characters, received ${JSON.stringify(values.name)}`)
  }
  const { store, backend } = await openAuthStore(values)
  try {
    if (sub === 'create') {
      const bot = await store.createBot({ name: values.name ?? 'bot' })
      io.stdout.write(`${bot.id}\n`)
      io.stderr.write(`created bot "${bot.name}"; give it a token with: botshelf token create --bot ${bot.id} --role bot\n`)
      return 0
    }
    const bots = await store.listBots()
    if (values.json) {
      io.stdout.write(`${JSON.stringify(bots, null, 2)}\n`)
      return 0
    }
    const rows = [['id', 'name', 'created'], ...bots.map((b) => [b.id, b.name, b.createdAt])]
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
    io.stdout.write(`${rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n')}\n`)
    return 0
  } finally {
    await backend.close()
  }
}
