import type { RateLimitOptions } from '../../http/rate-limit/index.js'
import type { Logger } from '../../http/logger.js'
import type { StorageQuotas } from '../../usage/index.js'
import type { ImportLimits } from '../../tables/import-limits.js'
import { parsePort, parseRateLimit, parseShutdownGrace } from '../args.js'
import { backgroundOptions } from '../background-options.js'
import type { EmbedderFlagName } from '../embedder-options.js'
import { UsageError, type CliStream } from '../io.js'
import { parseHostPolicy, parseRetrySchedule } from '../../webhooks/index.js'
import { parseByteSize, parseQuotaFlags } from '../quota-flags.js'
import { parseSearchMinScore } from '../search-min-score.js'
import { serveLogger, type LogFormat } from '../serve-logging.js'
import { resolveStorage, type StorageSettings } from '../storage-options.js'
import type { LogThreshold } from '../../http/log-level.js'
import { languageModelEnvFromFlags, languageModelFlags, languageModelOptionsFromEnv, LanguageModelError, type LanguageModelFlagName, type OpenAiCompatibleLanguageModelOptions } from '../../language-model/index.js'

/** The environment a command reads its settings from: read once at start-up and passed down. */
export type SettingsEnv = Readonly<Record<string, string | undefined>>

/** What `botshelf serve`'s flags hold once parsed by `parseCommandArgs` (a string per setting, the repeatable ones a list). */
export type ServeFlagValues = Partial<Record<string, string | string[] | boolean | undefined>> & {
  'cors-origin'?: string[]
} & Partial<Record<EmbedderFlagName, string>>

/** Every setting of `botshelf serve`, read and checked. */
export interface ServeSettings {
  port: number
  host: string
  metricsPort?: number
  logger: Logger
  logLevel: LogThreshold
  logFormat: LogFormat
  shutdownGraceMs: number
  /** `undefined`: the default limits; `false`: none. */
  rateLimit?: RateLimitOptions | false
  jobLeaseMs?: number
  expirySweepIntervalMs?: number
  /** `--webhook-retries` / `--webhook-hosts`, read. */
  webhooks: { retries?: number[]; allowedHosts?: string[] }
  quotas?: StorageQuotas
  /** The import bounds given (`--import-max-ratio`, `--import-table-rows`, `--import-bot-rows`); the rest keep their defaults. */
  importLimits: Partial<ImportLimits>
  storage: StorageSettings
  publicUrl?: string
  corsOrigins: string[]
  /** The relevance floor of file search (`--search-min-score`); absent: the server's default. */
  searchMinScore?: number
  /** The embeddings flags given; the embedder is made from them and `env` (`embedderFromCli`). */
  embeddings: Partial<Record<EmbedderFlagName, string>>
  /** The language model's options (`--llm-*` over `BOTSHELF_LLM_*`); `undefined`: none configured. */
  languageModel?: OpenAiCompatibleLanguageModelOptions
}

/**
 * Reads every setting of `botshelf serve` from its flags and the environment (a flag wins over its variable), in
 * the order the options are listed; the first value that cannot be read is a `UsageError` naming the flag or
 * variable (exit 2).
 *
 * @example
 * ```ts
 * const settings = readServeSettings({ port: '0', 'job-lease': '5' }, process.env, process.stdout)
 * settings.jobLeaseMs // 5000
 * ```
 */
export function readServeSettings(values: ServeFlagValues, env: SettingsEnv, stdout: CliStream): ServeSettings {
  const text = (flag: string) => {
    const value = values[flag]
    return typeof value === 'string' ? value : undefined
  }
  const port = parsePort(text('port'), 3000)
  const metricsText = text('metrics-port')
  const metricsPort = metricsText !== undefined ? parsePort(metricsText, 0, '--metrics-port') : undefined
  const logFlags = {
    ...(text('log-level') !== undefined ? { 'log-level': text('log-level') } : {}),
    ...(text('log-format') !== undefined ? { 'log-format': text('log-format') } : {}),
  }
  const { logger, level, format } = serveLogger(logFlags, { stdout, stderr: stdout, env })
  const shutdownGraceMs = parseShutdownGrace(text('shutdown-grace'), 10_000)
  const rateLimit = parseRateLimit(text('rate-limit'))
  const { jobLeaseMs, expirySweepIntervalMs } = backgroundOptions(values, env)
  const quotas = parseQuotaFlags({
    ...(text('quota-file-storage') !== undefined ? { 'quota-file-storage': text('quota-file-storage') } : {}),
    ...(text('quota-vector-storage') !== undefined ? { 'quota-vector-storage': text('quota-vector-storage') } : {}),
  })
  const importLimits: Partial<ImportLimits> = {}
  const importFlags = [
    ['import-max-ratio', 'BOTSHELF_IMPORT_MAX_RATIO', 'maxRatio'],
    ['import-table-rows', 'BOTSHELF_IMPORT_TABLE_ROWS', 'tableRows'],
    ['import-bot-rows', 'BOTSHELF_IMPORT_BOT_ROWS', 'botRows'],
  ] as const
  for (const [flag, variable, key] of importFlags) {
    const fromFlag = text(flag)
    const given = fromFlag ?? env[variable]
    if (given === undefined) continue
    const source = fromFlag !== undefined ? `--${flag}` : variable
    if (!/^[1-9][0-9]{0,15}$/.test(given.trim()) || !Number.isSafeInteger(Number(given))) throw new UsageError(`${source} must be a positive whole number, received ${JSON.stringify(given)}`)
    importLimits[key] = Number(given)
  }
  // Byte quotas take sizes as the storage quotas do (a number of bytes, or 1GB, 512MB).
  const importByteFlags = [
    ['import-table-bytes', 'BOTSHELF_IMPORT_TABLE_BYTES', 'tableBytes'],
    ['import-bot-bytes', 'BOTSHELF_IMPORT_BOT_BYTES', 'botBytes'],
  ] as const
  for (const [flag, variable, key] of importByteFlags) {
    const fromFlag = text(flag)
    const given = fromFlag ?? env[variable]
    if (given === undefined) continue
    const source = fromFlag !== undefined ? `--${flag}` : variable
    const bytes = parseByteSize(given, source)
    if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new UsageError(`${source} must be at least 1 byte, received ${JSON.stringify(given)}`)
    importLimits[key] = bytes
  }
  const host = text('host') ?? '127.0.0.1'
  const retriesText = text('webhook-retries') ?? env['BOTSHELF_WEBHOOK_RETRIES']
  let retries: number[] | undefined
  try {
    retries = retriesText !== undefined ? parseRetrySchedule(retriesText) : undefined
  } catch (error) {
    throw new UsageError(`--webhook-retries (or BOTSHELF_WEBHOOK_RETRIES): ${(error as Error).message.replace(/^webhook retries: /, '')}`)
  }
  const allowedHosts = parseHostPolicy(text('webhook-hosts') ?? env['BOTSHELF_WEBHOOK_HOSTS'])
  const storage = resolveStorage(
    {
      ...(text('data') !== undefined ? { data: text('data') } : {}),
      ...(text('database') !== undefined ? { database: text('database') } : {}),
      ...(text('blobs') !== undefined ? { blobs: text('blobs') } : {}),
    },
    env,
  )
  const publicUrl = text('public-url')?.replace(/\/+$/, '')
  if (publicUrl !== undefined && !/^https?:\/\/[^/]+/.test(publicUrl)) {
    throw new UsageError(`--public-url must be an absolute http(s) URL, received ${JSON.stringify(publicUrl)}`)
  }
  const corsOrigins = values['cors-origin'] ?? []
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/]+$/.test(origin)) {
      throw new UsageError(`--cors-origin must be an origin like http://localhost:5173 (no path) or "*", received ${JSON.stringify(origin)}`)
    }
  }
  const searchMinScore = parseSearchMinScore(values, env)
  const embeddings = Object.fromEntries(Object.entries(values).filter(([flag, value]) => flag.startsWith('embeddings-') && typeof value === 'string')) as Partial<
    Record<EmbedderFlagName, string>
  >
  const languageModel = languageModelFromCli(values, env)
  return {
    port,
    host,
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    logger,
    logLevel: level,
    logFormat: format,
    shutdownGraceMs,
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(jobLeaseMs !== undefined ? { jobLeaseMs } : {}),
    ...(expirySweepIntervalMs !== undefined ? { expirySweepIntervalMs } : {}),
    webhooks: { ...(retries ? { retries } : {}), ...(allowedHosts ? { allowedHosts: [...allowedHosts] } : {}) },
    ...(quotas ? { quotas } : {}),
    importLimits,
    storage,
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    corsOrigins,
    ...(searchMinScore !== undefined ? { searchMinScore } : {}),
    embeddings,
    ...(languageModel ? { languageModel } : {}),
  }
}

/** The `--llm-*` flags over their variables, read; a bad value is a `UsageError` naming the flag when a flag gave it. */
function languageModelFromCli(values: ServeFlagValues, env: SettingsEnv): OpenAiCompatibleLanguageModelOptions | undefined {
  const flags: Partial<Record<LanguageModelFlagName, string>> = {}
  for (const flag of Object.keys(languageModelFlags) as LanguageModelFlagName[]) {
    const value = values[flag]
    if (typeof value === 'string') flags[flag] = value
  }
  try {
    return languageModelOptionsFromEnv(languageModelEnvFromFlags(flags, env))
  } catch (error) {
    if (!(error instanceof LanguageModelError)) throw error
    for (const flag of Object.keys(languageModelFlags) as LanguageModelFlagName[]) {
      const variable = languageModelFlags[flag].env
      if (error.message.startsWith(`${variable}:`) && flags[flag] !== undefined) throw new UsageError(`--${flag}${error.message.slice(variable.length)}`)
    }
    throw new UsageError(error.message)
  }
}
