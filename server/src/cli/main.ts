import { UsageError, type CliIo } from './io.js'

/**
 * Help text of `botshelf`.
 *
 * @example
 * ```ts
 * process.stdout.write(mainHelp)
 * ```
 */
export const mainHelp = `Usage: botshelf <command> [options]

Commands:
  serve    run the Files and Tables service (botshelf serve --help)
  token    create, list and revoke access tokens (botshelf token --help)
  bot      create and list bots (botshelf bot --help)
  migrate  bring the storage's schema up to date (botshelf migrate --help)
  reindex  re-embed indexed files after the embeddings model changed (botshelf reindex --help)
  export   write the whole dataset into a checksummed archive folder (botshelf export --help)
  import   load an archive into an empty dataset: embedded <-> PostgreSQL + S3 (botshelf import --help)
  backup   back up the dataset while it is served, incrementally, into a folder (botshelf backup --help)
  restore  restore a backup into an empty dataset (botshelf restore --help)

  files    ls, put, get, rm, cp, tag, search, passages: the files of a bot (botshelf files --help)
  tables   ls, create, describe, find, insert, import, export, rm (botshelf tables --help)
  webhooks add, ls, rm, deliveries, retry: storage event subscriptions (botshelf webhooks --help)
  login    check and save a connection (--url, --token, --bot) as a profile; logout removes it
  usage    file and vector storage per bot (botshelf usage --help)

The data commands (files, tables, webhooks) talk to any botshelf or compatible service: --url, --token, --bot, or
BP_API_URL, BP_TOKEN, BP_BOT_ID, or the profile saved by "botshelf login".

Options:
  -h, --help     show this help
  -v, --version  print the version

Exit codes: 0 done, 1 failed, 2 bad arguments, 3 service unreachable or credentials refused,
130 interrupted (Ctrl-C). Results go to standard output, messages and progress to standard error.`

/**
 * Runs the CLI with arguments (without `node` and the script). Resolves with the exit code once the command
 * is done; for `serve`, once the server has shut down.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
        io.stderr.write(`${mainHelp}\n`)
        return 2
      case '-h':
      case '--help':
      case 'help':
        io.stdout.write(`${mainHelp}\n`)
        return 0
      case '-v':
      case '--version': {
        const { createRequire } = await import('node:module')
        const pkg = createRequire(import.meta.url)('../../package.json') as { version: string }
        io.stdout.write(`${pkg.version}\n`)
        return 0
      }
      case 'serve': {
        const { serveCommand } = await import('./serve.js')
        const handle = await serveCommand(rest, io)
        return handle ? await handle.done : 0
      }
      case 'usage':
        return await (await import('./usage.js')).usageCommand(rest, io)
      case 'token':
        return await (await import('./token.js')).tokenCommand(rest, io)
      case 'bot':
        return await (await import('./bot.js')).botCommand(rest, io)
      case 'files':
        return await (await import('./data/index.js')).filesCommand(rest, io)
      case 'tables':
        return await (await import('./data/index.js')).tablesCommand(rest, io)
      case 'webhooks':
        return await (await import('./data/index.js')).webhooksCommand(rest, io)
      case 'login':
        return await (await import('./data/index.js')).loginCommand(rest, io)
      case 'logout':
        return await (await import('./data/index.js')).logoutCommand(rest, io)
      case 'migrate':
        return await (await import('./migrate.js')).migrateCommand(rest, io)
      case 'reindex':
        return await (await import('./reindex.js')).reindexCommand(rest, io)
      case 'export':
        return await (await import('./export.js')).exportCommand(rest, io)
      case 'import':
        return await (await import('./import.js')).importCommand(rest, io)
      case 'backup':
        return await (await import('./backup.js')).backupCommand(rest, io)
      case 'restore':
        return await (await import('./restore.js')).restoreCommand(rest, io)
      default:
        throw new UsageError(`Unknown command "${command}"; expected serve, token, bot, migrate, reindex, export, import, backup, restore, files, tables, webhooks, login, logout or usage.\nRun "botshelf --help" for usage.`)
    }
  } catch (error) {
    // Loaded when a command fails: it names the client's errors, which a serving process never loads (decision 1480).
    const { describeFailure } = await import('./failure.js')
    const { code, message } = describeFailure(error)
    io.stderr.write(`botshelf: ${message}\n`)
    return code
  }
}
