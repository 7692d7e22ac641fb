import { memberRoles, tokenRoles } from '../http/principal.js'

/**
 * The help of each `botshelf token` subcommand alone (`token revoke --help` prints only revoke's).
 *
 * @example
 * ```ts
 * io.stdout.write(`${tokenSubcommandHelp.revoke}\n`)
 * ```
 */
export const tokenSubcommandHelp = {
  create: `Usage:
  botshelf token create [--data DIR | --database URL] [--bot BOT_ID] --role ROLE [--integration NAME] [--label TEXT]
  botshelf token create [--data DIR | --database URL] --workspace --role MEMBER_ROLE [--label TEXT]

Creates a token and prints it on standard output, and nothing else (it is shown once, stored as a hash).

Options:
  --role <role>         one of: ${tokenRoles.join(', ')}
  --integration NAME    the integration the token acts as (required with --role integration)
  --bot <id>            the bot the token acts for (default: the only bot of the folder)
  --workspace           a member token that reaches every bot of the workspace, like a Botpress personal
                        access token (the caller names the bot in x-bot-id). Member roles only:
                        ${memberRoles.join(', ')}. An administrator's can read /metrics.
  --label <text>        a note shown by "token list"
  --data <dir>          the data folder (default ./.botshelf)
  --database <url>      PostgreSQL instead of the data folder (else BOTSHELF_DATABASE_URL)`,
  list: `Usage: botshelf token list [--data DIR | --database URL] [--bot BOT_ID] [--all] [--json]

Prints id, scope, bot, role, integration, label and creation date of the active tokens (never their secrets).

Options:
  --bot <id>     only the tokens that reach that bot (bound to it, or workspace-wide)
  --all          include revoked tokens
  --json         print JSON
  --data <dir>   the data folder (default ./.botshelf)
  --database <url>  PostgreSQL instead of the data folder (else BOTSHELF_DATABASE_URL)`,
  revoke: `Usage: botshelf token revoke [--data DIR | --database URL] <token id>

Revokes a token by its id (tok_..., see "botshelf token list"); it stops working at once.

Options:
  --data <dir>   the data folder (default ./.botshelf)
  --database <url>  PostgreSQL instead of the data folder (else BOTSHELF_DATABASE_URL)`,
} as const
