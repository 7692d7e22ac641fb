import { memberRoles, tokenRoles, type MemberRole, type TokenRole } from '../http/principal.js'
import type { AuthPort } from '../store/index.js'
import { parseCommandArgs } from './args.js'
import { UsageError, type CliIo } from './io.js'
import { openAuthStore, type StorageFlags } from './open-store.js'
import { storageOptionTable } from './storage-options.js'
import { tokenSubcommandHelp } from './token-help.js'

/**
 * Help text of `botshelf token`.
 *
 * @example
 * ```ts
 * process.stdout.write(tokenHelp)
 * ```
 */
export const tokenHelp = `Usage:
  botshelf token create [--data DIR | --database URL] [--bot BOT_ID] --role ROLE [--integration NAME] [--label TEXT]
  botshelf token create [--data DIR | --database URL] --workspace --role MEMBER_ROLE [--label TEXT]
  botshelf token list   [--data DIR | --database URL] [--bot BOT_ID] [--all] [--json]
  botshelf token revoke [--data DIR | --database URL] <token id>

Manages the access tokens of a data folder (default ./.botshelf), or of a PostgreSQL database
(--database URL, or BOTSHELF_DATABASE_URL). Works while the server runs.

  create  prints the new token on standard output, and nothing else (it is shown once, stored as a hash).
          --role is one of: ${tokenRoles.join(', ')}
          --integration NAME is required with --role integration (the integration the token acts as).
          --bot defaults to the only bot of the folder.
          --workspace creates a member token that reaches every bot of the workspace, like a Botpress
          personal access token (the caller names the bot in x-bot-id). Member roles only:
          ${memberRoles.join(', ')}.
  list    prints id, scope, bot, role, integration, label and creation date of active tokens (--all: revoked too);
          --bot keeps the tokens that reach that bot (bound to it, or workspace-wide).
  revoke  revokes a token by its id (tok_...); it stops working at once.`

const openStore = openAuthStore

async function pickBot(store: AuthPort, botId: string | undefined): Promise<string> {
  if (botId !== undefined) {
    if (!(await store.getBot(botId))) {
      const known = (await store.listBots()).map((b) => b.id)
      throw new UsageError(`No bot with id "${botId}" in this data folder; bots: ${known.join(', ') || '(none)'}`)
    }
    return botId
  }
  const bots = await store.listBots()
  if (bots.length === 1) return bots[0]!.id
  throw new UsageError(`--bot is required: this data folder has ${bots.length} bots (${bots.map((b) => b.id).join(', ') || 'none'})`)
}

/**
 * Runs `botshelf token <create|list|revoke>`. Returns the exit code.
 *
 * @example
 * ```ts
 * await tokenCommand(['create', '--data', './.botshelf', '--role', 'viewer'], { stdout: process.stdout, stderr: process.stderr })
 * ```
 */
export async function tokenCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout.write(`${tokenHelp}\n`)
    return sub === undefined ? 2 : 0
  }
  switch (sub) {
    case 'create':
      return await createToken(rest, io)
    case 'list':
      return await listTokens(rest, io)
    case 'revoke':
      return await revokeToken(rest, io)
    default:
      throw new UsageError(`Unknown token command "${sub}"; expected create, list or revoke.\nRun "botshelf token --help" for usage.`)
  }
}

async function createToken(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    {
      ...storageOptionTable,
      bot: { type: 'string' },
      role: { type: 'string' },
      integration: { type: 'string' },
      label: { type: 'string' },
      workspace: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    'token create',
  )
  if (values.help) {
    io.stdout.write(`${tokenSubcommandHelp.create}\n`)
    return 0
  }
  if (values.role === undefined) throw new UsageError(`--role is required; one of ${tokenRoles.join(', ')}`)
  if (!(tokenRoles as readonly string[]).includes(values.role)) {
    throw new UsageError(`--role must be one of ${tokenRoles.join(', ')}; received ${JSON.stringify(values.role)}`)
  }
  const role = values.role as TokenRole
  if (role === 'integration' && !values.integration) throw new UsageError('--integration NAME is required with --role integration')
  if (role !== 'integration' && values.integration !== undefined) throw new UsageError(`--integration only goes with --role integration (received --role ${role})`)
  if (values.workspace) return await createWorkspaceToken(values, role, values.bot, values.label, io)
  const { store, backend } = await openStore(values)
  try {
    const botId = await pickBot(store, values.bot)
    const created = await store.createToken({
      botId,
      role,
      ...(values.integration !== undefined ? { integrationName: values.integration } : {}),
      ...(values.label !== undefined ? { label: values.label } : {}),
    })
    io.stdout.write(`${created.token}\n`)
    io.stderr.write(`created ${created.id} (${role}${created.integrationName ? ` ${created.integrationName}` : ''}) for bot ${botId}\n`)
    return 0
  } finally {
    await backend.close()
  }
}

async function createWorkspaceToken(storage: StorageFlags, role: TokenRole, bot: string | undefined, label: string | undefined, io: CliIo): Promise<number> {
  if (!(memberRoles as readonly string[]).includes(role)) {
    throw new UsageError(
      `--workspace takes a member role (${memberRoles.join(', ')}); received --role ${role}. ` +
        `${role === 'integration' ? 'An' : 'A'} ${role} token acts for one bot: drop --workspace and name the bot with --bot`,
    )
  }
  if (bot !== undefined) throw new UsageError('--workspace and --bot exclude each other: a workspace token reaches every bot of the workspace')
  const { store, backend } = await openStore(storage)
  try {
    const created = await store.createToken({ workspace: true, role: role as MemberRole, ...(label !== undefined ? { label } : {}) })
    io.stdout.write(`${created.token}\n`)
    io.stderr.write(`created ${created.id} (${role}) for every bot of workspace ${created.workspaceId}\n`)
    return 0
  } finally {
    await backend.close()
  }
}

async function listTokens(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { ...storageOptionTable, bot: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    'token list',
  )
  if (values.help) {
    io.stdout.write(`${tokenSubcommandHelp.list}\n`)
    return 0
  }
  const { store, backend } = await openStore(values)
  try {
    const tokens = await store.listTokens({ ...(values.bot !== undefined ? { botId: values.bot } : {}), activeOnly: !values.all })
    if (values.json) {
      io.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`)
      return 0
    }
    // The label is what the console shows to tell tokens apart: the list shows it too.
    const header = ['id', 'scope', 'bot', 'role', 'integration', 'label', 'created', 'revoked']
    const rows = tokens.map((t) => [t.id, t.scope, t.botId ?? '*', t.role, t.integrationName ?? '-', t.label ?? '-', t.createdAt, t.revokedAt ?? '-'])
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
    const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()
    io.stdout.write(`${[format(header), ...rows.map(format)].join('\n')}\n`)
    return 0
  } finally {
    await backend.close()
  }
}

async function revokeToken(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { ...storageOptionTable, help: { type: 'boolean', short: 'h' } }, 'token revoke', true)
  if (values.help) {
    io.stdout.write(`${tokenSubcommandHelp.revoke}\n`)
    return 0
  }
  if (positionals.length !== 1) throw new UsageError(`token revoke takes exactly one token id (tok_...); received ${positionals.length}`)
  const { store, backend } = await openStore(values)
  try {
    const id = positionals[0]!
    if (!(await store.listTokens()).some((t) => t.id === id)) throw new UsageError(`No token with id "${id}"; see "botshelf token list --all"`)
    const record = await store.revokeToken(id)
    io.stderr.write(`revoked ${record.id} (${record.role}) at ${record.revokedAt}\n`)
    return 0
  } finally {
    await backend.close()
  }
}
