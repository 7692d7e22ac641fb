import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertWinkEmbeddings } from './word-vectors-file.js'

const script = resolve(import.meta.dirname, '../../../../scripts/build-word-vectors.mjs')

describe('scripts/build-word-vectors.mjs (run by npm run build)', () => {
  it('never fails the build: a conversion that cannot happen is a warning and exit code 0', () => {
    const result = spawnSync(process.execPath, [script, '--force'], {
      env: { ...process.env, BOTSHELF_WORD_VECTORS_SOURCE: join(tmpdir(), 'no-such-wink-file.json') },
      encoding: 'utf8',
    })
    expect(result.status).toBe(0)
    expect(result.stderr).toMatch(/word vectors: not converted \(.+\); the offline embedder will report it and search stays lexical/)
  })

  it('refuses a source that is not the word-vector JSON, writing nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'botshelf-wv-'))
    try {
      const target = join(folder, 'out.bin')
      expect(() => convertWinkEmbeddings({ source: script, target })).toThrow(/no "vectors" object found/)
      expect(existsSync(target)).toBe(false)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
