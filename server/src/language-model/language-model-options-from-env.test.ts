import { describe, expect, it } from 'vitest'
import { languageModelEnvFromFlags, languageModelOptionsFromEnv } from './language-model-options-from-env.js'

describe('languageModelOptionsFromEnv', () => {
  it('is undefined without a URL, and reads the URL, model and key', () => {
    expect(languageModelOptionsFromEnv({})).toBeUndefined()
    expect(languageModelOptionsFromEnv({ BOTSHELF_LLM_URL: ' ' })).toBeUndefined()
    expect(languageModelOptionsFromEnv({ BOTSHELF_LLM_URL: 'http://127.0.0.1:11434/v1', BOTSHELF_LLM_MODEL: 'llama3.2', BOTSHELF_LLM_API_KEY: 'sk-1' })).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      apiKey: 'sk-1',
    })
  })

  it('names the variable, what it expects and what it received', () => {
    expect(() => languageModelOptionsFromEnv({ BOTSHELF_LLM_URL: 'localhost:11434' })).toThrow('BOTSHELF_LLM_URL: expected an http(s) base URL such as "http://127.0.0.1:11434/v1", received "localhost:11434"')
    expect(() => languageModelOptionsFromEnv({ BOTSHELF_LLM_URL: 'http://x/v1' })).toThrow('BOTSHELF_LLM_MODEL: expected a model name (required when BOTSHELF_LLM_URL is set), received nothing')
  })

  it('lets a flag win over its variable', () => {
    const env = languageModelEnvFromFlags({ 'llm-model': 'flag-model' }, { BOTSHELF_LLM_MODEL: 'env-model', BOTSHELF_LLM_URL: 'http://x/v1' })
    expect(languageModelOptionsFromEnv(env)).toEqual({ url: 'http://x/v1', model: 'flag-model' })
  })
})
