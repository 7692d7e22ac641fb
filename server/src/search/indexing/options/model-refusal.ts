import { LanguageModelError, LanguageModelUnavailableError } from '../../../language-model/index.js'

/** Why an option needing a language model was not applied when the server has none. */
export const NO_LANGUAGE_MODEL = 'no language model is configured (start the server with --llm-url and --llm-model, or BOTSHELF_LLM_URL and BOTSHELF_LLM_MODEL)'

/**
 * Why a language-model step could not be applied, for the file's note: no model configured, or the model refused (a
 * refusal that will not change by retrying). `undefined` for anything else, which the caller rethrows: an unavailable
 * model keeps the file pending (the job tries again later), other errors are the job's to retry.
 *
 * @example
 * ```ts
 * try { await summarize(...) } catch (error) { const why = modelRefusal(error); if (!why) throw error; notes.notApplied('summarization', why) }
 * ```
 */
export function modelRefusal(error: unknown): string | undefined {
  if (error instanceof LanguageModelUnavailableError || !(error instanceof LanguageModelError)) return undefined
  if (error.code === 'LANGUAGE_MODEL_NOT_CONFIGURED') return NO_LANGUAGE_MODEL
  return `the language model refused (${error.code}): ${error.message}`
}
