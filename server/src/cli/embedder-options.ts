import {
  createOfflineEmbedder,
  createOpenAiCompatibleEmbedder,
  embedderFlags,
  embedderOptionsFromEnv,
  EmbedderError,
  type Embedder,
  type OfflineEmbedderOptions,
  type OpenAiCompatibleEmbedderOptions,
} from '../search/embedding/index.js'
import { UsageError } from './io.js'
import { renderSettingsHelp } from './settings/render-help.js'
import { settingArgOptions } from './settings/arg-options.js'
import { embeddingsSettings } from './settings/serve-settings.js'

/** The flag names of the embeddings service (`--embeddings-url`, ...), as `parseArgs` values carry them. */
export type EmbedderFlagName = keyof typeof embedderFlags

/**
 * The `parseArgs` option table of the embeddings flags, for a command that takes them (`serve`, `reindex`).
 *
 * @example
 * ```ts
 * parseCommandArgs(args, { ...embedderArgOptions, data: { type: 'string' } }, 'reindex')
 * ```
 */
export const embedderArgOptions = settingArgOptions(embeddingsSettings) as {
  [K in EmbedderFlagName]: { type: 'string' }
}

/**
 * Help lines of the embeddings flags, aligned like the rest of a command's help.
 *
 * @example
 * ```ts
 * const help = `Options:\n${embedderFlagsHelp}`
 * ```
 */
export const embedderFlagsHelp = renderSettingsHelp(embeddingsSettings, 'embeddings')

/**
 * What the offline default is worth, measured on the labelled question set (bench/README.md, decision 0811): a few
 * words for the start banner, so nobody mistakes it for a sentence model.
 */
export const OFFLINE_QUALITY_NOTE = 'hybrid recall@10 0.79 on our 203-question set, 0.51 on paraphrases vs 0.04 for words alone; set --embeddings-url for a model'

/** The embedder a command runs with and how to describe it in one line. */
export interface ChosenEmbedder {
  /** `null`: no embedder could be made (the offline word vectors are missing): search ranks by words only. */
  embedder: Embedder | null
  /** One line for the banner, e.g. `text-embedding-3-small via http://.../embeddings` or the offline default and its quality. */
  description: string
}

/**
 * The environment with the given embeddings flags written over their variables: a flag wins over its variable.
 *
 * @example
 * ```ts
 * embedderEnvFromFlags({ 'embeddings-model': 'nomic-embed-text' }, process.env).BOTSHELF_EMBEDDINGS_MODEL // 'nomic-embed-text'
 * ```
 */
export function embedderEnvFromFlags(
  values: Partial<Record<EmbedderFlagName, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...env }
  for (const [flag, entry] of Object.entries(embedderFlags) as Array<[EmbedderFlagName, (typeof embedderFlags)[EmbedderFlagName]]>) {
    const value = values[flag]
    if (value !== undefined) merged[entry.env] = value
  }
  return merged
}

/**
 * Reads the embeddings service options from flags and variables; a bad value is a `UsageError` that names the flag
 * when a flag gave it (else the variable), what was expected and what was received. `undefined`: no service URL, so
 * the offline default.
 *
 * @example
 * ```ts
 * const service = serviceOptionsFromCli({ 'embeddings-url': 'http://127.0.0.1:11434/v1', 'embeddings-model': 'nomic-embed-text' }, process.env)
 * ```
 */
export function serviceOptionsFromCli(
  values: Partial<Record<EmbedderFlagName, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): OpenAiCompatibleEmbedderOptions | undefined {
  try {
    return embedderOptionsFromEnv(embedderEnvFromFlags(values, env))
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error
    throw new UsageError(nameTheFlag(error.message, values))
  }
}

/** The variable-named message of `embedderOptionsFromEnv`, rewritten to name the flag when a flag set the value. */
function nameTheFlag(message: string, values: Partial<Record<EmbedderFlagName, string | undefined>>): string {
  for (const [flag, entry] of Object.entries(embedderFlags) as Array<[EmbedderFlagName, (typeof embedderFlags)[EmbedderFlagName]]>) {
    if (!message.startsWith(`${entry.env}:`)) continue
    const source = values[flag] !== undefined ? `--${flag}` : entry.env
    return `${source}${message.slice(entry.env.length)}`
  }
  return message
}

/**
 * Makes the embedder the flags and variables ask for: the OpenAI-compatible service when a URL is given, else the
 * offline default; a missing offline word-vector file gives `embedder: null` (lexical search) with a description that
 * says so. Bad values are `UsageError`s.
 *
 * @example
 * ```ts
 * const { embedder, description } = await embedderFromCli(values, process.env)
 * io.stderr.write(`  search:      ${description}\n`)
 * ```
 */
export async function embedderFromCli(
  values: Partial<Record<EmbedderFlagName, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
  options: { offline?: OfflineEmbedderOptions; service?: Partial<OpenAiCompatibleEmbedderOptions> } = {},
): Promise<ChosenEmbedder> {
  const service = serviceOptionsFromCli(values, env)
  if (service) {
    const embedder = createOpenAiCompatibleEmbedder({ ...options.service, ...service })
    return { embedder, description: `${embedder.label} (vectors from the service; dimension learned on first use)` }
  }
  try {
    const embedder = await createOfflineEmbedder(options.offline)
    return { embedder, description: `offline word vectors + n-grams (${OFFLINE_QUALITY_NOTE})` }
  } catch (error) {
    if (!(error instanceof EmbedderError)) throw error
    return { embedder: null, description: `words only (BM25): the offline embedder could not load: ${error.message}` }
  }
}
