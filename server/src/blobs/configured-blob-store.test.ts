import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3TestServer, type S3TestServer } from '../../../test/helpers/s3-server.js'
import { openConfiguredBlobStore } from './configured-blob-store.js'
import { BlobConfigError } from './errors.js'

async function* bytes(text: string): AsyncIterable<Uint8Array> {
  yield Buffer.from(text)
}

describe('openConfiguredBlobStore', () => {
  let s3: S3TestServer
  let localRoot: string
  beforeAll(async () => {
    s3 = await startS3TestServer({ buckets: ['content'] })
    localRoot = await mkdtemp(join(tmpdir(), 'botshelf-configured-'))
  })
  afterAll(async () => {
    await s3?.stop()
    await rm(localRoot, { recursive: true, force: true })
  })

  it('keeps content in the local folder when no blobs URL is set', async () => {
    const content = await openConfiguredBlobStore({ env: {}, localRoot })
    expect(content.kind).toBe('local-folder')
    expect(content.location).toBe(localRoot)
    const { blobId } = await content.blobs.write(bytes('local'))
    expect(await readdir(join(localRoot, 'blobs'))).toEqual([blobId])
    content.close()
  })

  it('opens the S3 store the flag names, over the variable', async () => {
    const content = await openConfiguredBlobStore({
      flag: 's3://content/from-flag',
      env: { BOTSHELF_BLOBS_URL: 's3://other', BOTSHELF_S3_ENDPOINT: s3.endpoint, AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey },
      localRoot,
    })
    expect(content.kind).toBe('s3')
    expect(content.location).toBe('s3://content/from-flag/')
    const { blobId } = await content.blobs.write(bytes('remote'))
    expect(await new Response((await content.blobs.read(blobId)).stream).text()).toBe('remote')
    expect((await fetch(`${s3.endpoint}/content/from-flag/blobs/${blobId}`)).status).toBe(200)
    content.close()
  })

  it('throws the configuration error before opening anything', async () => {
    await expect(openConfiguredBlobStore({ env: { BOTSHELF_BLOBS_URL: 'bucket' }, localRoot })).rejects.toBeInstanceOf(BlobConfigError)
  })
})
