import { describe, expect, it } from 'vitest'
import type { PresignedReadOptions } from '../blobs/index.js'
import type { FileRecord } from '../store/index.js'
import { contentUrlFor, defaultUrlLifetimes } from './content-urls.js'

const key = Buffer.alloc(32, 7)
const now = new Date('2026-03-04T05:06:07.000Z')

function record(overrides: Partial<FileRecord> = {}): FileRecord {
  return {
    id: 'file_01',
    botId: 'bot_1',
    key: 'reports/q1 résumé.pdf',
    ownerScope: '',
    owner: { type: 'bot', id: 'bot_1' } as FileRecord['owner'],
    contentType: 'application/pdf',
    tags: {},
    metadata: {},
    accessPolicies: [],
    index: false,
    status: 'upload_completed',
    failedStatusReason: null,
    expiresAt: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    version: 2,
    declaredSize: 3,
    contentVersion: 2,
    indexGeneration: 0,
    indexingStack: null,
    indexingConfiguration: null,
    blobId: 'blob_0123456789abcdef0123456789abcdef',
    size: 3,
    sha256: 'x',
    blobContentType: null,
    ...overrides,
  }
}

describe('contentUrlFor with a blob store that presigns', () => {
  const asked: Array<[string, PresignedReadOptions]> = []
  const presigning = {
    presignedReadUrl: (blobId: string, options: PresignedReadOptions) => {
      asked.push([blobId, options])
      return `https://storage.example/${blobId}?signed`
    },
  }

  it("gives a private file the storage's URL, asked with the download lifetime, the type and the private disposition", () => {
    asked.length = 0
    // The type the content was uploaded with wins over the declared one, as when botshelf serves it.
    expect(contentUrlFor(key, 'http://b.test', record({ blobContentType: 'application/zip' }), now, defaultUrlLifetimes, presigning)).toBe('https://storage.example/blob_0123456789abcdef0123456789abcdef?signed')
    expect(asked).toEqual([
      [
        'blob_0123456789abcdef0123456789abcdef',
        {
          now,
          expiresInSeconds: 900,
          contentType: 'application/zip',
          contentDisposition: `attachment; filename="q1 r_sum_.pdf"; filename*=UTF-8''q1%20r%C3%A9sum%C3%A9.pdf`,
        },
      ],
    ])
  })

  it('keeps botshelf URLs for public files, files without content, stores that cannot sign now, and stores without the method', () => {
    expect(contentUrlFor(key, 'http://b.test', record({ accessPolicies: ['public_content'] }), now, defaultUrlLifetimes, presigning)).toMatch(/^http:\/\/b\.test\/v1\/content\/public\//)
    expect(contentUrlFor(key, 'http://b.test', record({ blobId: null }), now, defaultUrlLifetimes, presigning)).toMatch(/^http:\/\/b\.test\/v1\/content\/files\//)
    expect(contentUrlFor(key, 'http://b.test', record(), now, defaultUrlLifetimes, { presignedReadUrl: () => undefined })).toMatch(/^http:\/\/b\.test\/v1\/content\/files\//)
    expect(contentUrlFor(key, 'http://b.test', record(), now, defaultUrlLifetimes, {})).toMatch(/^http:\/\/b\.test\/v1\/content\/files\//)
    expect(contentUrlFor(key, 'http://b.test', record(), now, defaultUrlLifetimes)).toMatch(/^http:\/\/b\.test\/v1\/content\/files\//)
  })
})
