import { describe, expect, it } from 'vitest'
import { toReadableIssues } from '../../issues/index.js'
import { filesOperations, UpsertFileBodySchema, UpdateFileMetadataBodySchema, ListFilesQuerySchema } from './operations.js'
import { FileSchema } from './file.js'

describe('files operations', () => {
  it('has the 15 operations of docs/wire-format.md §7 with matching names', () => {
    const names = Object.entries(filesOperations).map(([key, op]) => {
      expect(op.name).toBe(key)
      return key
    })
    expect(names).toHaveLength(15)
    expect(filesOperations.copyFile.path).toBe('/v1/files/{idOrKey}/{destinationKey}')
    expect(filesOperations.listFileTagValues.path).toBe('/v1/files/tags/{tag}/values')
  })

  it('refuses unknown body keys and names them', () => {
    const result = UpsertFileBodySchema.safeParse({ key: 'a.txt', size: 1, colour: 'red' })
    expect(result.success).toBe(false)
    const issues = toReadableIssues(result.error!.issues, { key: 'a.txt', size: 1, colour: 'red' })
    expect(issues[0]!.received).toContain('colour')
  })

  it('refuses keys with control characters and over-long tag values', () => {
    expect(UpsertFileBodySchema.safeParse({ key: 'a\nb', size: 1 }).success).toBe(false)
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, tags: { t: 'x'.repeat(1001) } }).success).toBe(false)
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, tags: { t: 'x'.repeat(1000) } }).success).toBe(true)
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'v']))
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, tags: tooMany }).success).toBe(false)
  })

  it('refuses C1 controls, line separators and bidirectional controls in keys, keys not in NFC, controls in tag values and content types (issue 28)', () => {
    for (const key of ['a\u0085b', 'a\u2028b', 'invoice\u202Efdp.exe', 'a\u2066b']) expect(UpsertFileBodySchema.safeParse({ key, size: 1 }).success, key).toBe(false)
    const nfd = UpsertFileBodySchema.safeParse({ key: 'cafe\u0301.txt', size: 1 })
    expect(nfd.error?.issues[0]?.message).toBe('expected a key in Unicode NFC (composed) form; received another form: send key.normalize("NFC")')
    expect(UpsertFileBodySchema.safeParse({ key: 'caf\u00e9.txt', size: 1 }).success).toBe(true)
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, tags: { t: 'x\u001b]52;c;aGk=\u0007' } }).success).toBe(false)
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, contentType: 'text/plain\r\nX-Evil: 1' }).success).toBe(false)
    expect(UpsertFileBodySchema.safeParse({ key: 'a', size: 1, contentType: 'text/plain; charset=utf-8' }).success).toBe(true)
  })

  it('accepts null patches in updateFileMetadata and caps listFiles ids at 50', () => {
    expect(UpdateFileMetadataBodySchema.parse({ tags: { a: null }, metadata: { b: null }, expiresAt: null })).toEqual({
      tags: { a: null },
      metadata: { b: null },
      expiresAt: null,
    })
    expect(ListFilesQuerySchema.safeParse({ ids: Array.from({ length: 51 }, (_, i) => `f${i}`) }).success).toBe(false)
  })

  it('File objects refuse unknown fields and accept the 14 required ones', () => {
    const file = {
      id: 'file_1', botId: 'bot_1', key: 'a', url: 'http://x', size: null, contentType: 'text/plain', tags: {},
      metadata: {}, createdAt: 'x', updatedAt: 'x', accessPolicies: [], index: false, status: 'upload_pending',
      owner: { type: 'bot', id: 'bot_1' },
    }
    expect(FileSchema.safeParse(file).success).toBe(true)
    expect(FileSchema.safeParse({ ...file, extra: 1 }).success).toBe(false)
    const { owner: _owner, ...withoutOwner } = file
    expect(FileSchema.safeParse(withoutOwner).success).toBe(false)
  })
})
