import { parseCommandArgs } from '../args.js'
import { envOf, UsageError, type CliIo } from '../io.js'
import { clientFor, resolveConnection } from './connection.js'
import { profilesPath, removeProfile, saveProfile } from './profile-store.js'

/**
 * Help text of `botshelf login` and `botshelf logout`.
 *
 * @example
 * ```ts
 * process.stdout.write(loginHelp)
 * ```
 */
export const loginHelp = `Usage:
  botshelf login  [--url URL] [--token TOKEN] [--bot BOT_ID] [--profile NAME]
  botshelf logout [--profile NAME]

login checks the connection (it lists one file) and saves it as a profile (default "default") that the data
commands use when neither a flag nor BP_API_URL / BP_TOKEN / BP_BOT_ID gives a setting. Each setting comes from
its flag, else its variable, else the profile already saved. The profiles file
($BOTSHELF_CONFIG_DIR, else $XDG_CONFIG_HOME/botshelf, else ~/.config/botshelf: profiles.json) holds tokens and is
readable by you only. logout removes a profile.`

/**
 * Runs `botshelf login`: resolves the connection like every data command, checks it against the service and
 * saves it as a profile. Resolves with the exit code.
 *
 * @example
 * ```ts
 * await loginCommand(['--url', 'http://127.0.0.1:3000', '--token', token, '--bot', botId], io)
 * ```
 */
export async function loginCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { url: { type: 'string' }, token: { type: 'string' }, bot: { type: 'string' }, profile: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'login',
    true,
  )
  if (values.help) {
    io.stdout.write(`${loginHelp}\n`)
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`login takes no arguments; received ${positionals.map((p) => JSON.stringify(p)).join(' ')}`)
  const name = values.profile ?? envOf(io).BOTSHELF_PROFILE ?? 'default'
  const connection = await resolveConnection({ ...values, profile: name }, io, true)
  await clientFor(connection).listFiles({ pageSize: 1 })
  const path = profilesPath(envOf(io))
  await saveProfile(path, name, { url: connection.url, token: connection.token, botId: connection.botId })
  io.stderr.write(`logged in to ${connection.url} as bot ${connection.botId}; saved profile "${name}" in ${path}\n`)
  return 0
}

/**
 * Runs `botshelf logout`: removes a saved profile.
 *
 * @example
 * ```ts
 * await logoutCommand(['--profile', 'staging'], io)
 * ```
 */
export async function logoutCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { profile: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, 'logout')
  if (values.help) {
    io.stdout.write(`${loginHelp}\n`)
    return 0
  }
  const name = values.profile ?? envOf(io).BOTSHELF_PROFILE ?? 'default'
  const path = profilesPath(envOf(io))
  if (!(await removeProfile(path, name))) throw new UsageError(`no profile named "${name}" in ${path}`)
  io.stderr.write(`removed profile "${name}"\n`)
  return 0
}
