import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openSqliteBackend } from './backend.js'

// Temporary folders of this file go under a folder of its own, so the test can see what an open leaves behind.
const scratch = vi.hoisted(() => ({ root: '' }))

vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof import('node:os')>()
  return { ...os, tmpdir: () => scratch.root || os.tmpdir() }
})

// A store that fails while the backend is being built, after the database is open and migrated.
vi.mock('./tables/tables-port.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./tables/tables-port.js')>()
  return {
    ...original,
    SqliteTablesStore: class {
      constructor() {
        throw new Error('the tables store failed to start')
      }
    },
  }
})

describe('openSqliteBackend when building the ports fails', () => {
  let root = ''
  afterEach(() => {
    scratch.root = ''
    rmSync(root, { recursive: true, force: true })
  })

  function isolate(): string {
    root = mkdtempSync(join(tmpdir(), 'botshelf-open-'))
    scratch.root = root
    return root
  }

  it('removes the temporary content folder of an in-memory backend', async () => {
    const folder = isolate()
    await expect(openSqliteBackend({ memory: true })).rejects.toThrow('the tables store failed to start')
    expect(readdirSync(folder)).toEqual([])
  })

  it('releases the data folder lock', async () => {
    const dataDir = join(isolate(), 'data')
    await expect(openSqliteBackend({ dataDir })).rejects.toThrow('the tables store failed to start')
    expect(existsSync(join(dataDir, 'botshelf.lock'))).toBe(false)
  })
})
