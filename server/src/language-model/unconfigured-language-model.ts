import type { LanguageModel } from './language-model.js'
import { LanguageModelError } from './language-model-errors.js'

/**
 * The model of a server started without `--llm-url`: every call fails at once with `LANGUAGE_MODEL_NOT_CONFIGURED`,
 * naming the setting, so a computation fails with a reason instead of waiting for a model that will never come.
 *
 * @example
 * ```ts
 * const model = options ? createOpenAiCompatibleLanguageModel(options) : unconfiguredLanguageModel
 * ```
 */
export const unconfiguredLanguageModel: LanguageModel = {
  async complete() {
    throw new LanguageModelError(
      'LANGUAGE_MODEL_NOT_CONFIGURED',
      'no language model is configured: start the server with --llm-url (or BOTSHELF_LLM_URL) naming an OpenAI-compatible API, and --llm-model (BOTSHELF_LLM_MODEL)',
    )
  },
}
