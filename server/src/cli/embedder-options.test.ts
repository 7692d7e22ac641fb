import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { embedderEnvFromFlags, embedderFromCli, serviceOptionsFromCli } from './embedder-options.js'
import { UsageError } from './io.js'

describe('embedder options of the CLI', () => {
  it('writes given flags over their variables and leaves the others', () => {
    const env = embedderEnvFromFlags({ 'embeddings-model': 'from-flag' }, { BOTSHELF_EMBEDDINGS_MODEL: 'from-env', BOTSHELF_EMBEDDINGS_URL: 'http://h/v1', OTHER: 'x' })
    expect(env).toEqual({ BOTSHELF_EMBEDDINGS_MODEL: 'from-flag', BOTSHELF_EMBEDDINGS_URL: 'http://h/v1', OTHER: 'x' })
  })

  it('reads the service options, flags first; none without a URL', () => {
    expect(serviceOptionsFromCli({}, {})).toBeUndefined()
    expect(serviceOptionsFromCli({ 'embeddings-url': 'http://127.0.0.1:11434/v1', 'embeddings-timeout-ms': '500' }, { BOTSHELF_EMBEDDINGS_MODEL: 'nomic', BOTSHELF_EMBEDDINGS_TIMEOUT_MS: '9' })).toEqual({
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic',
      timeoutMs: 500,
    })
  })

  it('names the flag when a flag gave the bad value, the variable otherwise', () => {
    const fromFlag = (() => {
      try {
        serviceOptionsFromCli({ 'embeddings-max-retries': 'many' }, { BOTSHELF_EMBEDDINGS_URL: 'http://h/v1', BOTSHELF_EMBEDDINGS_MODEL: 'm' })
      } catch (error) {
        return error
      }
    })()
    expect(fromFlag).toBeInstanceOf(UsageError)
    expect((fromFlag as Error).message).toBe('--embeddings-max-retries: expected an integer ≥ 0, received "many"')
    expect(() => serviceOptionsFromCli({}, { BOTSHELF_EMBEDDINGS_URL: 'http://h/v1', BOTSHELF_EMBEDDINGS_MODEL: 'm', BOTSHELF_EMBEDDINGS_MAX_RETRIES: 'many' })).toThrow(
      'BOTSHELF_EMBEDDINGS_MAX_RETRIES: expected an integer ≥ 0, received "many"',
    )
  })

  it('falls back to words only, saying why, when the offline word vectors are missing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'botshelf-no-wv-'))
    try {
      const chosen = await embedderFromCli({}, {}, { offline: { wordVectorsPath: join(folder, 'missing.bin') } })
      expect(chosen.embedder).toBeNull()
      expect(chosen.description).toMatch(/^words only \(BM25\): the offline embedder could not load: .*missing\.bin/)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('describes a service embedder by its model and endpoint', async () => {
    const chosen = await embedderFromCli({ 'embeddings-url': 'http://127.0.0.1:9/v1', 'embeddings-model': 'tiny' }, {})
    expect(chosen.description).toMatch(/^tiny via http:\/\/127\.0\.0\.1:9\/v1\/embeddings/)
    await chosen.embedder?.close?.()
  })
})
