import { describe, expect, it } from 'vitest'
import { UsageError } from '../io.js'
import { readServeSettings } from './read-serve-settings.js'

const quiet = { write: () => true }

describe('readServeSettings: import byte quotas', () => {
  it('reads --import-table-bytes and --import-bot-bytes as sizes, the flag over its variable', () => {
    const settings = readServeSettings({ 'import-table-bytes': '256MB' }, { BOTSHELF_IMPORT_TABLE_BYTES: '1KB', BOTSHELF_IMPORT_BOT_BYTES: '2GB' }, quiet)
    expect(settings.importLimits).toMatchObject({ tableBytes: 256 * 1024 ** 2, botBytes: 2 * 1024 ** 3 })
    expect(readServeSettings({ 'import-bot-bytes': '5000' }, {}, quiet).importLimits).toEqual({ botBytes: 5000 })
    expect(readServeSettings({}, {}, quiet).importLimits).toEqual({})
  })

  it('refuses what is not a size of at least one byte, naming the flag or variable', () => {
    expect(() => readServeSettings({ 'import-table-bytes': 'lots' }, {}, quiet)).toThrow(UsageError)
    expect(() => readServeSettings({ 'import-table-bytes': 'lots' }, {}, quiet)).toThrow('--import-table-bytes must be a size like 500MB or 10GB (units B, KB, MB, GB, TB), received "lots"')
    expect(() => readServeSettings({}, { BOTSHELF_IMPORT_BOT_BYTES: '0' }, quiet)).toThrow('BOTSHELF_IMPORT_BOT_BYTES must be at least 1 byte, received "0"')
  })
})
