// The language-model port (decision 1421): chat completions for AI columns, search summaries and image captions.
export type { LanguageModel, ChatRequest, ChatMessage, ChatContentPart, ChatAnswer } from './language-model.js'
export { LanguageModelError, LanguageModelUnavailableError, type LanguageModelErrorCode } from './language-model-errors.js'
export { createOpenAiCompatibleLanguageModel, type OpenAiCompatibleLanguageModelOptions } from './openai-compatible-language-model.js'
export { unconfiguredLanguageModel } from './unconfigured-language-model.js'
export { languageModelFlags, languageModelOptionsFromEnv, languageModelEnvFromFlags, type LanguageModelFlagName } from './language-model-options-from-env.js'
