import { randomBytes } from 'node:crypto'
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, UploadPartCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startS3TestServer, type S3TestServer } from '../../../../test/helpers/s3-server.js'
import { describeBlobStoreContract } from '../blob-store.contract.js'
import { createS3BlobStore, type S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.js'
import { bytesOf } from './bytes.test-support.js'

let s3: S3TestServer
beforeAll(async () => {
  s3 = await startS3TestServer({ buckets: ['content'] })
})
afterAll(async () => {
  await s3?.stop()
})

/** A store on its own fresh prefix of the test bucket, with S3's smallest parts so content of MBs is multipart. */
function storeOnFreshPrefix(options: Partial<S3BlobStoreOptions> = {}): { blobs: S3BlobStore; prefix: string } {
  const prefix = `t${randomBytes(6).toString('hex')}/`
  const blobs = createS3BlobStore({
    bucket: 'content',
    prefix,
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    partSize: 5 * 1024 * 1024,
    queueSize: 2,
    abandonedAfterMs: 0,
    ...options,
  })
  return { blobs, prefix }
}

async function inspect(blobs: S3BlobStore, prefix: string): Promise<{ unfinished: number; stored: string[] }> {
  const objects = await blobs.client.send(new ListObjectsV2Command({ Bucket: 'content', Prefix: prefix }))
  const uploads = await blobs.client.send(new ListMultipartUploadsCommand({ Bucket: 'content', Prefix: prefix }))
  return {
    unfinished: uploads.Uploads?.length ?? 0,
    stored: (objects.Contents ?? []).map((o) => (o.Key ?? '').slice(`${prefix}blobs/`.length)).sort(),
  }
}

async function leaveUnfinishedUpload(blobs: S3BlobStore, key: string): Promise<void> {
  const created = await blobs.client.send(new CreateMultipartUploadCommand({ Bucket: 'content', Key: key }))
  await blobs.client.send(new UploadPartCommand({ Bucket: 'content', Key: key, UploadId: created.UploadId, PartNumber: 1, Body: Buffer.from('half') }))
}

describeBlobStoreContract('S3 (s3rver)', async () => {
  const { blobs, prefix } = storeOnFreshPrefix()
  return {
    blobs,
    inspect: () => inspect(blobs, prefix),
    leaveUnfinishedWrite: () => leaveUnfinishedUpload(blobs, `${prefix}blobs/blob_${randomBytes(16).toString('hex')}`),
    async dispose() {
      blobs.close()
    },
  }
})

describe('S3 blob store', () => {
  it('streams a 64 MB body in parts without ever holding more than (queueSize + 1) parts', async () => {
    const { blobs, prefix } = storeOnFreshPrefix({ queueSize: 2 })
    const part = 5 * 1024 * 1024
    const total = 64 * 1024 * 1024
    const chunk = randomBytes(64 * 1024)
    async function* body(): AsyncIterable<Uint8Array> {
      for (let sent = 0; sent < total; sent += chunk.byteLength) yield chunk
    }
    const written = await blobs.write(body(), { expectedBytes: total })
    const stats = blobs.uploadStats()
    expect(stats.partsUploaded).toBe(Math.ceil(total / part))
    expect(stats.multipartUploads).toBe(1)
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(3 * part)
    expect(stats.peakBufferedBytes).toBeLessThan(total / 4)
    expect(stats.bufferedBytes).toBe(0)
    expect(await blobs.stat(written.blobId)).toEqual({ size: total })
    expect(await inspect(blobs, prefix)).toEqual({ unfinished: 0, stored: [written.blobId] })
    blobs.close()
  })

  it('sends content of exactly one part in one PutObject, not a multipart upload', async () => {
    const { blobs } = storeOnFreshPrefix()
    const body = randomBytes(5 * 1024 * 1024)
    await blobs.write(bytesOf(body), { expectedBytes: body.byteLength })
    expect(blobs.uploadStats()).toMatchObject({ multipartUploads: 0, partsUploaded: 0, bufferedBytes: 0 })
    blobs.close()
  })

  it('leaves unfinished uploads and unreferenced blobs younger than abandonedAfterMs alone, whatever olderThan says', async () => {
    let now = new Date()
    const { blobs, prefix } = storeOnFreshPrefix({ abandonedAfterMs: 60 * 60 * 1000, now: () => now })
    const orphan = await blobs.write(bytesOf('orphan'))
    await leaveUnfinishedUpload(blobs, `${prefix}blobs/blob_${randomBytes(16).toString('hex')}`)
    expect(await blobs.sweep(() => new Set<string>(), { olderThan: new Date(Date.now() + 60_000) })).toEqual({ temporaryFiles: 0, orphans: 0 })
    now = new Date(Date.now() + 2 * 60 * 60 * 1000)
    expect(await blobs.sweep(() => new Set<string>(), { olderThan: now })).toEqual({ temporaryFiles: 1, orphans: 1 })
    expect(await blobs.stat(orphan.blobId)).toBeUndefined()
    blobs.close()
  })

  it('pages through unfinished uploads and objects in the sweep', async () => {
    const { blobs, prefix } = storeOnFreshPrefix({ listPageSize: 2 })
    for (let i = 0; i < 5; i++) await leaveUnfinishedUpload(blobs, `${prefix}blobs/blob_${randomBytes(16).toString('hex')}`)
    const written = []
    for (let i = 0; i < 7; i++) written.push(await blobs.write(bytesOf(`blob ${i}`)))
    const kept = new Set(written.slice(0, 3).map((w) => w.blobId))
    // One question a page of the listing (2 objects), never one a blob.
    const asked: string[][] = []
    const referenced = (ids: ReadonlyArray<string>): Set<string> => {
      asked.push([...ids])
      return new Set(ids.filter((id) => kept.has(id)))
    }
    expect(await blobs.sweep(referenced)).toEqual({ temporaryFiles: 5, orphans: 4 })
    expect(asked).toHaveLength(4)
    expect(asked.flat().sort()).toEqual(written.map((w) => w.blobId).sort())
    expect(await inspect(blobs, prefix)).toEqual({ unfinished: 0, stored: [...kept].sort() })
    blobs.close()
  })

  it('touches nothing outside its prefix', async () => {
    const other = storeOnFreshPrefix()
    const mine = storeOnFreshPrefix()
    const theirs = await other.blobs.write(bytesOf('theirs'))
    expect(await mine.blobs.sweep(() => new Set<string>())).toEqual({ temporaryFiles: 0, orphans: 0 })
    expect(await other.blobs.stat(theirs.blobId)).toEqual({ size: 6 })
    expect(await mine.blobs.stat(theirs.blobId)).toBeUndefined()
    other.blobs.close()
    mine.blobs.close()
  })

  it('a download whose storage connection breaks midway errors its stream with a BlobError, not a socket error', async () => {
    const doomed = await startS3TestServer({ buckets: ['content'] })
    const blobs = createS3BlobStore({
      bucket: 'content',
      region: doomed.region,
      endpoint: doomed.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: doomed.accessKeyId, secretAccessKey: doomed.secretAccessKey },
    })
    const { blobId } = await blobs.write(bytesOf(randomBytes(32 * 1024 * 1024)))
    const reader = (await blobs.read(blobId)).stream.getReader()
    expect((await reader.read()).done).toBe(false)
    await doomed.stop()
    const failure = await (async () => {
      for (;;) if ((await reader.read()).done) return undefined
    })().catch((error: unknown) => error)
    expect(failure).toMatchObject({ name: 'BlobStorageError', code: 'BLOB_STORAGE_UNAVAILABLE', operation: 'GetObject' })
    blobs.close()
  })
})
