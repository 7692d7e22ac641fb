import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { embedderFlags, embedderOptionsFromEnv } from './embedder-options-from-env.js'

describe('embedderOptionsFromEnv', () => {
  it('is undefined without a URL: the offline embedder is used', () => {
    expect(embedderOptionsFromEnv({})).toBeUndefined()
    expect(embedderOptionsFromEnv({ BOTSHELF_EMBEDDINGS_URL: '  ', BOTSHELF_EMBEDDINGS_MODEL: 'm' })).toBeUndefined()
  })

  it('reads the URL, model, key and numbers', () => {
    expect(
      embedderOptionsFromEnv({
        BOTSHELF_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1',
        BOTSHELF_EMBEDDINGS_MODEL: 'nomic-embed-text',
        BOTSHELF_EMBEDDINGS_API_KEY: 'k',
        BOTSHELF_EMBEDDINGS_BATCH_SIZE: '16',
        BOTSHELF_EMBEDDINGS_TIMEOUT_MS: '5000',
        BOTSHELF_EMBEDDINGS_MAX_RETRIES: '0',
        BOTSHELF_EMBEDDINGS_QUERY_PREFIX: 'search_query: ',
        BOTSHELF_EMBEDDINGS_PASSAGE_PREFIX: 'search_document: ',
      }),
    ).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: 'k',
      batchSize: 16,
      timeoutMs: 5000,
      maxRetries: 0,
      queryPrefix: 'search_query: ',
      passagePrefix: 'search_document: ',
    })
  })

  it('names the variable, what it expects and what it received', () => {
    expect(() => embedderOptionsFromEnv({ BOTSHELF_EMBEDDINGS_URL: 'http://x/v1' })).toThrow(
      'BOTSHELF_EMBEDDINGS_MODEL: expected a model name (required when BOTSHELF_EMBEDDINGS_URL is set), received nothing',
    )
    expect(() => embedderOptionsFromEnv({ BOTSHELF_EMBEDDINGS_URL: 'ollama:11434', BOTSHELF_EMBEDDINGS_MODEL: 'm' })).toThrow(/BOTSHELF_EMBEDDINGS_URL: expected an http\(s\) base URL.*received "ollama:11434"/)
    expect(() => embedderOptionsFromEnv({ BOTSHELF_EMBEDDINGS_URL: 'http://x', BOTSHELF_EMBEDDINGS_MODEL: 'm', BOTSHELF_EMBEDDINGS_BATCH_SIZE: 'many' })).toThrow(
      'BOTSHELF_EMBEDDINGS_BATCH_SIZE: expected an integer ≥ 1, received "many"',
    )
  })

  it('has a flag table that parseArgs takes, each flag standing for its variable', () => {
    const { values } = parseArgs({ args: ['--embeddings-url', 'https://api.example/v1', '--embeddings-model', 'e5'], options: { ...embedderFlags }, strict: true })
    const env: Record<string, string | undefined> = {}
    for (const [flag, entry] of Object.entries(embedderFlags)) {
      const value = (values as Record<string, unknown>)[flag]
      if (typeof value === 'string') env[entry.env] = value
    }
    expect(embedderOptionsFromEnv(env)).toEqual({ url: 'https://api.example/v1', model: 'e5' })
  })
})
