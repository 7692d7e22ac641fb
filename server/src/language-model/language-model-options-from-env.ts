import { LanguageModelError } from './language-model-errors.js'
import type { OpenAiCompatibleLanguageModelOptions } from './openai-compatible-language-model.js'

/**
 * The `serve` flags of the language model (AI columns, summaries, captions), each with the environment variable it
 * stands for. A flag wins over its variable: the CLI writes given flags over their variables and calls
 * `languageModelOptionsFromEnv`.
 *
 * @example
 * ```ts
 * languageModelFlags['llm-url'].env // 'BOTSHELF_LLM_URL'
 * ```
 */
export const languageModelFlags = {
  'llm-url': {
    type: 'string',
    env: 'BOTSHELF_LLM_URL',
    description: 'Base URL of an OpenAI-compatible chat API (botshelf POSTs to {url}/chat/completions); unset: AI columns fail saying so',
  },
  'llm-api-key': { type: 'string', env: 'BOTSHELF_LLM_API_KEY', description: 'Sent as "Authorization: Bearer <key>" to the chat API' },
  'llm-model': { type: 'string', env: 'BOTSHELF_LLM_MODEL', description: 'The model used when an AI column names none (required with --llm-url)' },
} as const satisfies Record<string, { type: 'string'; env: string; description: string }>

/** The flag names of the language model (`llm-url`, ...). */
export type LanguageModelFlagName = keyof typeof languageModelFlags

/**
 * Reads the language-model configuration from environment variables: `undefined` when `BOTSHELF_LLM_URL` is unset or
 * empty (no model: AI columns fail with a reason naming the setting), otherwise the options of
 * `createOpenAiCompatibleLanguageModel`. A bad value is a `LanguageModelError` (`LANGUAGE_MODEL_INVALID_OPTIONS`)
 * naming the variable, what it expects and what it received.
 *
 * @example
 * ```ts
 * const options = languageModelOptionsFromEnv(process.env)
 * const model = options ? createOpenAiCompatibleLanguageModel(options) : unconfiguredLanguageModel
 * ```
 */
export function languageModelOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): OpenAiCompatibleLanguageModelOptions | undefined {
  const read = (name: string) => {
    const value = env[name]?.trim()
    return value === undefined || value === '' ? undefined : value
  }
  const invalid = (name: string, expected: string, received: string | undefined) =>
    new LanguageModelError('LANGUAGE_MODEL_INVALID_OPTIONS', `${name}: expected ${expected}, received ${received === undefined ? 'nothing' : JSON.stringify(received)}`)
  const url = read(languageModelFlags['llm-url'].env)
  if (url === undefined) return undefined
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw invalid('BOTSHELF_LLM_URL', 'an http(s) base URL such as "http://127.0.0.1:11434/v1"', url)
  const model = read(languageModelFlags['llm-model'].env)
  if (model === undefined) throw invalid('BOTSHELF_LLM_MODEL', 'a model name (required when BOTSHELF_LLM_URL is set)', model)
  const options: OpenAiCompatibleLanguageModelOptions = { url, model }
  const apiKey = read(languageModelFlags['llm-api-key'].env)
  if (apiKey !== undefined) options.apiKey = apiKey
  return options
}

/**
 * The environment with the given language-model flags written over their variables: a flag wins over its variable.
 *
 * @example
 * ```ts
 * languageModelEnvFromFlags({ 'llm-model': 'llama3.2' }, process.env).BOTSHELF_LLM_MODEL // 'llama3.2'
 * ```
 */
export function languageModelEnvFromFlags(
  values: Partial<Record<LanguageModelFlagName, string | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...env }
  for (const [flag, entry] of Object.entries(languageModelFlags) as Array<[LanguageModelFlagName, (typeof languageModelFlags)[LanguageModelFlagName]]>) {
    const value = values[flag]
    if (value !== undefined) merged[entry.env] = value
  }
  return merged
}
