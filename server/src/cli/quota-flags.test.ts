import { describe, expect, it } from 'vitest'
import { UsageError } from './io.js'
import { parseByteSize, parseQuotaFlags } from './quota-flags.js'

describe('quota flags', () => {
  it('reads sizes with binary units, case-insensitive', () => {
    expect(parseByteSize('10GB', '--q')).toBe(10 * 1024 ** 3)
    expect(parseByteSize('1.5kb', '--q')).toBe(1536)
    expect(parseByteSize('512', '--q')).toBe(512)
    expect(parseByteSize('2 MB', '--q')).toBe(2 * 1024 ** 2)
  })

  it('refuses anything else, naming the flag and what it received', () => {
    expect(() => parseByteSize('ten GB', '--quota-file-storage')).toThrow(UsageError)
    expect(() => parseByteSize('10GiB', '--quota-file-storage')).toThrow('--quota-file-storage must be a size like 500MB or 10GB (units B, KB, MB, GB, TB), received "10GiB"')
    expect(() => parseByteSize('-1MB', '--quota-vector-storage')).toThrow('--quota-vector-storage must be a size')
  })

  it('gives quotas only for the flags set', () => {
    expect(parseQuotaFlags({})).toBeUndefined()
    expect(parseQuotaFlags({ 'quota-vector-storage': '1GB' })).toEqual({ vectorStorageBytes: 1024 ** 3 })
    expect(parseQuotaFlags({ 'quota-file-storage': '10GB', 'quota-vector-storage': '1MB' })).toEqual({ fileStorageBytes: 10 * 1024 ** 3, vectorStorageBytes: 1024 ** 2 })
  })
})
