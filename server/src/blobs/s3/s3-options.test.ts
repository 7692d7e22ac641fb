import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3TestServer, type S3TestServer } from '../../../../test/helpers/s3-server.js'
import { BlobConfigError, BlobStorageError } from '../errors.js'
import { createS3BlobStore } from './s3-blob-store.js'
import { blobStoreOptionsFrom, openS3BlobStore } from './s3-options.js'
import { bytesOf } from './bytes.test-support.js'

const configError = (run: () => unknown): BlobConfigError => {
  try {
    run()
  } catch (error) {
    if (error instanceof BlobConfigError) return error
    throw error
  }
  throw new Error('expected a BlobConfigError')
}

describe('blobStoreOptionsFrom', () => {
  it('is undefined (content stays in the data folder) when neither --blobs nor BOTSHELF_BLOBS_URL is set', () => {
    expect(blobStoreOptionsFrom({ env: {} })).toBeUndefined()
    expect(blobStoreOptionsFrom({ env: { BOTSHELF_BLOBS_URL: '' } })).toBeUndefined()
  })

  it('reads the bucket and prefix, the region and the keys, with AWS defaults', () => {
    expect(
      blobStoreOptionsFrom({
        env: { BOTSHELF_BLOBS_URL: 's3://my-bucket/botshelf/prod/', AWS_REGION: 'eu-west-3', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'SECRET' },
      }),
    ).toEqual({
      bucket: 'my-bucket',
      prefix: 'botshelf/prod/',
      region: 'eu-west-3',
      forcePathStyle: false,
      presignDownloads: false,
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'SECRET' },
    })
  })

  it('lets the flag win over the variable, and defaults to path style with a custom endpoint', () => {
    const options = blobStoreOptionsFrom({
      flag: 's3://flag-bucket',
      env: { BOTSHELF_BLOBS_URL: 's3://env-bucket', BOTSHELF_S3_ENDPOINT: 'http://127.0.0.1:4569/', AWS_DEFAULT_REGION: 'us-west-2', AWS_SESSION_TOKEN: 'T' },
    })
    expect(options).toEqual({ bucket: 'flag-bucket', prefix: '', region: 'us-west-2', endpoint: 'http://127.0.0.1:4569', forcePathStyle: true, presignDownloads: false })
  })

  it('reads BOTSHELF_S3_FORCE_PATH_STYLE and BOTSHELF_S3_PRESIGN as booleans', () => {
    const options = blobStoreOptionsFrom({
      env: { BOTSHELF_BLOBS_URL: 's3://b-1', BOTSHELF_S3_ENDPOINT: 'https://r2.example.com', BOTSHELF_S3_FORCE_PATH_STYLE: 'false', BOTSHELF_S3_PRESIGN: 'TRUE' },
    })
    expect(options).toMatchObject({ forcePathStyle: false, presignDownloads: true })
    expect(blobStoreOptionsFrom({ env: { BOTSHELF_BLOBS_URL: 's3://b-1', BOTSHELF_S3_PRESIGN: '0', BOTSHELF_S3_FORCE_PATH_STYLE: '1' } })).toMatchObject({
      forcePathStyle: true,
      presignDownloads: false,
    })
  })

  it.each([
    [{ flag: 'my-bucket', env: {} }, '--blobs', 'expected an s3:// URL'],
    [{ flag: '', env: {} }, '--blobs', 'expected an s3:// URL'],
    [{ env: { BOTSHELF_BLOBS_URL: 'https://my-bucket' } }, 'BOTSHELF_BLOBS_URL', 'expected an s3:// URL'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://' } }, 'BOTSHELF_BLOBS_URL', 'expected a bucket name after s3://'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3:///prefix' } }, 'BOTSHELF_BLOBS_URL', 'expected a bucket name after s3://'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://My_Bucket' } }, 'BOTSHELF_BLOBS_URL', 'received "My_Bucket"'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://ab' } }, 'BOTSHELF_BLOBS_URL', 'expected a bucket name of 3 to 63'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket/a//b' } }, 'BOTSHELF_BLOBS_URL', "without empty segments ('//')"],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket/../x' } }, 'BOTSHELF_BLOBS_URL', 'received ".."'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket/a b' } }, 'BOTSHELF_BLOBS_URL', 'received "a b"'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', BOTSHELF_S3_ENDPOINT: '127.0.0.1:9000' } }, 'BOTSHELF_S3_ENDPOINT', 'expected an http:// or https:// URL'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', BOTSHELF_S3_ENDPOINT: 'ftp://host' } }, 'BOTSHELF_S3_ENDPOINT', 'received "ftp://host"'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', BOTSHELF_S3_ENDPOINT: 'http://u:p@host' } }, 'BOTSHELF_S3_ENDPOINT', 'without user or password'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', BOTSHELF_S3_FORCE_PATH_STYLE: 'yes' } }, 'BOTSHELF_S3_FORCE_PATH_STYLE', 'expected true or false, received "yes"'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', BOTSHELF_S3_PRESIGN: 'on' } }, 'BOTSHELF_S3_PRESIGN', 'expected true or false, received "on"'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', AWS_REGION: 'Europe' } }, 'AWS_REGION', 'expected a region name'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', AWS_ACCESS_KEY_ID: 'AKID' } }, 'AWS_SECRET_ACCESS_KEY', 'since AWS_ACCESS_KEY_ID is set'],
    [{ env: { BOTSHELF_BLOBS_URL: 's3://bucket', AWS_SECRET_ACCESS_KEY: 'S' } }, 'AWS_ACCESS_KEY_ID', 'since AWS_SECRET_ACCESS_KEY is set'],
  ])('refuses %j naming %s', (sources, setting, text) => {
    const error = configError(() => blobStoreOptionsFrom(sources))
    expect(error.setting).toBe(setting)
    expect(error.code).toBe('BLOB_CONFIG')
    expect(error.message.startsWith(`${setting}: `)).toBe(true)
    expect(error.message).toContain(text)
  })

  it('never puts a secret in an error message', () => {
    const error = configError(() => blobStoreOptionsFrom({ env: { BOTSHELF_BLOBS_URL: 's3://bucket', AWS_SECRET_ACCESS_KEY: 'very-secret' } }))
    expect(error.message).not.toContain('very-secret')
  })
})

describe('openS3BlobStore', () => {
  let s3: S3TestServer
  beforeAll(async () => {
    s3 = await startS3TestServer({ buckets: ['present'] })
  })
  afterAll(async () => {
    await s3?.stop()
  })
  const env = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({
    BOTSHELF_BLOBS_URL: url,
    BOTSHELF_S3_ENDPOINT: s3.endpoint,
    AWS_ACCESS_KEY_ID: s3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    ...extra,
  })

  it('opens a store on a configured bucket that works end to end', async () => {
    const options = blobStoreOptionsFrom({ env: env('s3://present/app/') })
    if (!options) throw new Error('expected options')
    const blobs = await openS3BlobStore(options)
    const written = await blobs.write(bytesOf('configured'))
    expect(await new Response((await blobs.read(written.blobId)).stream).text()).toBe('configured')
    expect(blobs.presignedReadUrl).toBeUndefined()
    blobs.close()
  })

  it('refuses a bucket that does not exist, saying which and what to check', async () => {
    const options = blobStoreOptionsFrom({ env: env('s3://absent-bucket') })
    if (!options) throw new Error('expected options')
    const failure = await openS3BlobStore(options).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(BlobStorageError)
    expect(failure).toMatchObject({ code: 'BLOB_STORAGE_REFUSED', operation: 'HeadBucket', storageCode: 'NoSuchBucket' })
    expect((failure as Error).message).toContain('check the bucket, region, credentials')
  })

  it('refuses unknown credentials at open and on every call, without showing them', async () => {
    const options = blobStoreOptionsFrom({ env: env('s3://present', { AWS_ACCESS_KEY_ID: 'NOBODY', AWS_SECRET_ACCESS_KEY: 'hidden-secret' }) })
    if (!options) throw new Error('expected options')
    const atOpen = await openS3BlobStore(options).catch((error: unknown) => error)
    expect(atOpen).toMatchObject({ code: 'BLOB_STORAGE_REFUSED', operation: 'HeadBucket' })
    const store = createS3BlobStore(options)
    const onWrite = await store.write(bytesOf('x')).catch((error: unknown) => error)
    expect(onWrite).toMatchObject({ code: 'BLOB_STORAGE_REFUSED', operation: 'PutObject', storageCode: 'InvalidAccessKeyId' })
    for (const failure of [atOpen, onWrite]) expect(String((failure as Error).message)).not.toContain('hidden-secret')
    store.close()
  })

  it('says the storage is unavailable when nothing answers at the endpoint', async () => {
    const options = blobStoreOptionsFrom({ env: { ...env('s3://present'), BOTSHELF_S3_ENDPOINT: 'http://127.0.0.1:1' } })
    if (!options) throw new Error('expected options')
    const failure = await openS3BlobStore(options).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: 'BLOB_STORAGE_UNAVAILABLE', operation: 'HeadBucket' })
  })
})

describe('loading the configuration module', () => {
  it('loads no AWS SDK code until a store is opened (the SDK stays in a chunk of its own)', async () => {
    const entry = fileURLToPath(new URL('./s3-options.ts', import.meta.url))
    const result = await build({ entryPoints: [entry], bundle: true, splitting: true, format: 'esm', platform: 'node', write: false, metafile: true, outdir: '/virtual', logLevel: 'silent' })
    const outputs = Object.entries(result.metafile.outputs)
    const [, entryOutput] = outputs.find(([, output]) => output.entryPoint !== undefined) ?? []
    expect(entryOutput).toBeDefined()
    const staticImports = (entryOutput?.imports ?? []).filter((imported) => imported.kind === 'import-statement').map((imported) => imported.path)
    const staticallyLoaded = new Set([...Object.keys(entryOutput?.inputs ?? {}), ...staticImports.flatMap((path) => Object.keys(result.metafile.outputs[path]?.inputs ?? {}))])
    expect([...staticallyLoaded].filter((input) => input.includes('@aws-sdk'))).toEqual([])
    expect(outputs.some(([, output]) => Object.keys(output.inputs).some((input) => input.includes('@aws-sdk/client-s3')))).toBe(true)
  }, 60_000)
})
