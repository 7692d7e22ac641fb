import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { moduleWorkers, moduleWorkerUrl } from './spawn-module-worker.js'

describe('moduleWorkerUrl', () => {
  it('finds a worker from a module one folder below the root: this one, or a chunk of the bundled CLI', () => {
    expect(moduleWorkerUrl(moduleWorkers.extraction, 'file:///app/server/dist/platform/spawn-module-worker.js').href).toBe(
      'file:///app/server/dist/search/extraction/worker/extraction-worker.js',
    )
    expect(moduleWorkerUrl(moduleWorkers.codeSandbox, 'file:///app/server/dist/bundle/chunk-ABC123.js').href).toBe(
      'file:///app/server/dist/tables/computed/sandbox/sandbox-worker.js',
    )
    expect(moduleWorkerUrl(moduleWorkers.listsTraining, 'file:///repo/server/src/platform/spawn-module-worker.ts').href).toBe(
      'file:///repo/server/src/store/sqlite/search/lists-worker.ts',
    )
  })

  it.each(Object.entries(moduleWorkers))('%s names a module of the sources (%s)', (_name, path) => {
    expect(existsSync(fileURLToPath(moduleWorkerUrl(path)))).toBe(true)
  })
})
