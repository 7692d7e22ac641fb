import { serveCommand } from './serve.js'
import { tokenCommand } from './token.js'
import { botCommand } from './bot.js'
import { migrateCommand } from './migrate.js'
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

Options:
  -h, --help     show this help
  -v, --version  print the version`

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
        const handle = await serveCommand(rest, io)
        return handle ? await handle.done : 0
      }
      case 'token':
        return await tokenCommand(rest, io)
      case 'bot':
        return await botCommand(rest, io)
      case 'migrate':
        return await migrateCommand(rest, io)
      default:
        throw new UsageError(`Unknown command "${command}"; expected serve, token, bot or migrate.\nRun "botshelf --help" for usage.`)
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`botshelf: ${error.message}\n`)
      return 2
    }
    const err = error as NodeJS.ErrnoException
    if (err?.code === 'EADDRINUSE') {
      io.stderr.write(`botshelf: the port is already in use (${err.message}); pick another with --port\n`)
      return 1
    }
    io.stderr.write(`botshelf: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}
