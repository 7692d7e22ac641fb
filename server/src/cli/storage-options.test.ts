import { describe, expect, it } from 'vitest'
import { UsageError } from './io.js'
import { describeStorage, resolveStorage } from './storage-options.js'

describe('resolveStorage', () => {
  it('keeps everything in the data folder when no database is named', () => {
    expect(resolveStorage({}, {})).toEqual({ dataDir: './.botshelf', blobs: { kind: 'data-folder' } })
    expect(resolveStorage({ data: '/srv/bs' }, { BOTSHELF_DATABASE_URL: '' })).toEqual({ dataDir: '/srv/bs', blobs: { kind: 'data-folder' } })
  })

  it('takes the database from BOTSHELF_DATABASE_URL, and --database over it', () => {
    const env = { BOTSHELF_DATABASE_URL: 'postgres://env@db:5432/botshelf' }
    expect(resolveStorage({}, env)).toMatchObject({ databaseUrl: 'postgres://env@db:5432/botshelf', databaseSource: 'BOTSHELF_DATABASE_URL', dataDir: './.botshelf' })
    expect(resolveStorage({ database: 'postgresql://flag@db/botshelf', data: './content-here' }, env)).toMatchObject({
      databaseUrl: 'postgresql://flag@db/botshelf',
      databaseSource: '--database',
      dataDir: './content-here',
    })
  })

  it('refuses a URL that is not PostgreSQL, naming where it came from and hiding its password', () => {
    expect(() => resolveStorage({ database: 'mysql://u:pw@db/x' }, {})).toThrow(UsageError)
    expect(() => resolveStorage({ database: 'mysql://u:pw@db/x' }, {})).toThrow(/^--database must be a PostgreSQL URL like postgres:\/\/.*received "mysql:\/\/u:pw@db\/x"/)
    expect(() => resolveStorage({}, { BOTSHELF_DATABASE_URL: 'postgres://u:secret@ db/x' })).toThrow(/^BOTSHELF_DATABASE_URL must be a PostgreSQL URL.*"postgres:\/\/u:\*\*\*@ db\/x"/)
  })

  it('describes the storage without the password', () => {
    const settings = resolveStorage({ database: 'postgres://app:s3cret@db:5432/botshelf', data: '/srv/bs' }, {})
    expect(describeStorage(settings)).toBe('postgres://app:***@db:5432/botshelf (file content in /srv/bs/content)')
    expect(describeStorage(resolveStorage({ data: '/srv/bs' }, {}))).toBe('/srv/bs')
  })

  it('puts content in S3 when --blobs or BOTSHELF_BLOBS_URL names a bucket, the flag winning', () => {
    const env = { BOTSHELF_DATABASE_URL: 'postgres://db/botshelf', BOTSHELF_BLOBS_URL: 's3://from-env/p', BOTSHELF_S3_ENDPOINT: 'http://127.0.0.1:4569' }
    expect(resolveStorage({}, env).blobs).toMatchObject({ kind: 's3', url: 's3://from-env/p' })
    const settings = resolveStorage({ blobs: 's3://from-flag/botshelf' }, env)
    expect(settings.blobs).toMatchObject({ kind: 's3', url: 's3://from-flag/botshelf' })
    expect(describeStorage(settings)).toBe('postgres://db/botshelf (file content in s3://from-flag/botshelf)')
  })

  it('refuses a blobs setting that does not parse, or S3 content without a database, as usage errors naming the setting', () => {
    const database = { BOTSHELF_DATABASE_URL: 'postgres://db/botshelf' }
    expect(() => resolveStorage({ blobs: 'http://bucket' }, database)).toThrow(UsageError)
    expect(() => resolveStorage({ blobs: 'http://bucket' }, database)).toThrow(/--blobs/)
    expect(() => resolveStorage({}, { ...database, BOTSHELF_BLOBS_URL: 'ftp://x' })).toThrow(/BOTSHELF_BLOBS_URL/)
    expect(() => resolveStorage({ blobs: 's3://content' }, {})).toThrow(/^--blobs \(content in s3:\/\/content\) needs a PostgreSQL database/)
  })
})
