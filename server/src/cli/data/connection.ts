import { Client } from 'botshelf/client'
import type { CommandOptions } from '../args.js'
import { envOf, UsageError, type CliIo } from '../io.js'
import { loadProfile, profilesPath } from './profile-store.js'

/** The local botshelf address, used when neither a flag, a variable nor a profile names a server. */
export const DEFAULT_URL = 'http://127.0.0.1:3000'

/**
 * The connection options every data command takes (`--url`, `--token`, `--bot`, `--profile`).
 *
 * @example
 * ```ts
 * parseCommandArgs(args, { ...connectionOptions, json: { type: 'boolean' } }, 'files ls', true)
 * ```
 */
export const connectionOptions = {
  url: { type: 'string' },
  token: { type: 'string' },
  bot: { type: 'string' },
  profile: { type: 'string' },
} as const satisfies CommandOptions

/** Where the three settings of a connection came from, for messages. */
export type SettingSource = 'flag' | 'environment' | 'profile' | 'default'

/** A resolved connection: the server, the credentials, and where each came from. */
export interface Connection {
  url: string
  token: string
  botId: string
  sources: { url: SettingSource; token: SettingSource; botId: SettingSource }
}

/**
 * Resolves the connection of a data command, each setting on its own: the flag (`--url`, `--token`, `--bot`),
 * else the variable (`BP_API_URL`, `BP_TOKEN`, `BP_BOT_ID`), else the saved profile (`--profile`, else
 * `BOTSHELF_PROFILE`, else `default`, from `botshelf login`); the URL falls back to the local server.
 * A missing token or bot id is a `UsageError` saying the three ways to give it.
 *
 * @example
 * ```ts
 * const connection = await resolveConnection({ url: 'http://127.0.0.1:3000' }, io)
 * ```
 */
export async function resolveConnection(
  values: { url?: string; token?: string; bot?: string; profile?: string },
  io: CliIo,
  /** `botshelf login` may name a profile it is about to create. */
  profileMayBeMissing = false,
): Promise<Connection> {
  const env = envOf(io)
  const profileName = values.profile ?? env.BOTSHELF_PROFILE ?? 'default'
  const profile = await loadProfile(profilesPath(env), profileName)
  if (values.profile !== undefined && profile === undefined && !profileMayBeMissing) {
    throw new UsageError(`--profile: no profile named "${values.profile}" in ${profilesPath(env)}; save one with "botshelf login --profile ${values.profile}"`)
  }
  const pick = (flag: string | undefined, variable: string | undefined, saved: string | undefined): [string | undefined, SettingSource] =>
    flag !== undefined ? [flag, 'flag'] : variable ? [variable, 'environment'] : saved !== undefined ? [saved, 'profile'] : [undefined, 'default']
  const [url, urlSource] = pick(values.url, env.BP_API_URL, profile?.url)
  const [token, tokenSource] = pick(values.token, env.BP_TOKEN, profile?.token)
  const [botId, botSource] = pick(values.bot, env.BP_BOT_ID, profile?.botId)
  const resolvedUrl = (url ?? DEFAULT_URL).replace(/\/+$/, '')
  if (!/^https?:\/\/[^/]+/.test(resolvedUrl)) {
    throw new UsageError(`--url must be an absolute http(s) URL like ${DEFAULT_URL}, received ${JSON.stringify(url)}`)
  }
  if (!token) throw new UsageError('No token: pass --token, set BP_TOKEN, or save one with "botshelf login"')
  if (!botId) throw new UsageError('No bot id: pass --bot, set BP_BOT_ID, or save one with "botshelf login"')
  return { url: resolvedUrl, token, botId, sources: { url: url === undefined ? 'default' : urlSource, token: tokenSource, botId: botSource } }
}

/**
 * botshelf's client for a resolved connection. Retries idempotent calls a few times (a restarting server).
 *
 * @example
 * ```ts
 * const client = clientFor(await resolveConnection(values, io))
 * ```
 */
export function clientFor(connection: Connection): Client {
  return new Client({ apiUrl: connection.url, token: connection.token, botId: connection.botId, retry: { retries: 2 } })
}
